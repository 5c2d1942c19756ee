import { useState } from 'react'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Card } from '#src/components/ui/card.tsx'
import { Dialog } from '#src/components/ui/dialog.tsx'
import { PasswordField } from '#src/components/ui/password-field.tsx'
import { TextField } from '#src/components/ui/text-field.tsx'
import { cardStyle, cardTitleStyle, hintStyle, rowStyle } from './settings-styles.ts'
import { useAccountData } from './use-account-settings.ts'

/** Export my data, delete my account (D78). Deletion asks for the password (or the email) first. */
export function AccountDataCard() {
  const { account, failed, exporting, deleting, error, exportData, deleteAccount, retry } = useAccountData()
  const [confirming, setConfirming] = useState(false)
  return (
    <Card className={cardStyle}>
      <h3 className={cardTitleStyle}>Your data</h3>
      {error && !confirming ? <Alert>{error}</Alert> : null}
      <p className={hintStyle}>
        Download your conversations, with their messages and sources, and the list of your library as one JSON
        file.
      </p>
      <div className={rowStyle}>
        <Button variant="secondary" disabled={exporting || account === null} onClick={exportData}>
          {exporting ? 'Exporting...' : 'Export my data'}
        </Button>
        {failed ? (
          <Button variant="ghost" size="sm" onClick={retry}>
            Try again
          </Button>
        ) : null}
      </div>
      <p className={hintStyle}>
        Deleting your account removes it and everything it holds: conversations, documents, uploads, sessions,
        and DocChat's access to your Google Drive. It cannot be undone.
      </p>
      <div>
        <Button variant="secondary" disabled={account === null} onClick={() => setConfirming(true)}>
          Delete my account
        </Button>
      </div>
      {confirming && account ? (
        <DeleteDialog
          hasPassword={account.hasPassword}
          busy={deleting}
          error={error}
          onCancel={() => setConfirming(false)}
          onConfirm={deleteAccount}
        />
      ) : null}
    </Card>
  )
}

type DeleteDialogProps = {
  hasPassword: boolean
  busy: boolean
  error: string | null
  onCancel: () => void
  onConfirm: (confirmation: { password?: string; email?: string }) => void
}

function DeleteDialog({ hasPassword, busy, error, onCancel, onConfirm }: DeleteDialogProps) {
  const [value, setValue] = useState('')
  const [visible, setVisible] = useState(false)
  const formId = 'delete-account-form'
  return (
    <Dialog
      title="Delete your account?"
      onClose={onCancel}
      footer={
        <>
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button variant="danger" type="submit" form={formId} disabled={busy || value === ''}>
            {busy ? 'Deleting...' : 'Delete my account'}
          </Button>
        </>
      }
    >
      <form
        id={formId}
        className={cardStyle}
        onSubmit={(event) => {
          event.preventDefault()
          onConfirm(hasPassword ? { password: value } : { email: value })
        }}
      >
        <p>
          Everything goes, now and for good.{' '}
          {hasPassword ? 'Enter your password to confirm.' : 'Type your email to confirm.'}
        </p>
        {error ? <Alert>{error}</Alert> : null}
        {hasPassword ? (
          <PasswordField
            label="Password"
            autoComplete="current-password"
            visible={visible}
            onVisibleChange={setVisible}
            value={value}
            onChange={(e) => setValue(e.target.value)}
          />
        ) : (
          <TextField label="Email" type="email" value={value} onChange={(e) => setValue(e.target.value)} />
        )}
      </form>
    </Dialog>
  )
}
