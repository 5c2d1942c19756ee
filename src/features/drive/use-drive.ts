/** Facade over the drive actor for what both Drive screens need: listing on show, and connecting. */
import { useEffect } from 'react'
import { DriveActor } from './drive-actor.ts'

/**
 * Lists the Drive files each time a Drive screen is shown: files change in Drive, outside this
 * app. A listing already under way absorbs the request (StrictMode's second mount included).
 */
export function useListDriveOnShow() {
  const drive = DriveActor.useActorRef()
  useEffect(() => {
    drive.send({ type: 'drive.list' })
  }, [drive])
}

export function useDriveConnection() {
  const drive = DriveActor.useActorRef()
  return {
    /** product §4: the last listing succeeded. */
    connected: DriveActor.useSelector((snapshot) => snapshot.context.connected),
    /** false: this server has no Google OAuth client, so connecting can never work (D133). */
    configured: DriveActor.useSelector((snapshot) => snapshot.context.configured),
    /** Opens Google's consent page in a popup; its success message reloads the list. */
    connect() {
      drive.send({ type: 'drive.connect' })
    },
    confirmingDisconnect: DriveActor.useSelector((snapshot) => snapshot.hasTag('confirmingDisconnect')),
    disconnecting: DriveActor.useSelector((snapshot) => snapshot.hasTag('disconnecting')),
    disconnectFailure: DriveActor.useSelector((snapshot) => snapshot.context.disconnectFailure),
    askDisconnect() {
      drive.send({ type: 'drive.disconnectAsk' })
    },
    cancelDisconnect() {
      drive.send({ type: 'drive.disconnectCancel' })
    },
    disconnect(documents: 'keep' | 'remove') {
      drive.send({ type: 'drive.disconnect', documents })
    },
  }
}
