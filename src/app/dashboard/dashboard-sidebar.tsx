import { useEffect, useId, useRef, useState } from 'react'
import { Link } from 'wouter'
import { Button } from '#src/components/ui/button.tsx'
import { CloseIcon, MenuIcon, PlusIcon } from '#src/components/ui/dashboard-icons.tsx'
import { focusMessageBox } from '#src/features/chat/focus-message-box.ts'
import { css } from '../../../styled-system/css'
import { SIDEBAR, sectionOf } from './dashboard-screens.tsx'
import { NewChatMenu } from './new-chat-menu.tsx'
import { useScreen } from './screen-match.ts'
import { useDashboard } from './use-dashboard.ts'

const itemStyle = css({
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  w: 'full',
  px: '3',
  py: '2',
  borderRadius: 'lg',
  fontSize: 'sm',
  fontWeight: 'medium',
  color: 'muted',
  whiteSpace: 'nowrap',
  textDecoration: 'none',
  transition: 'background 0.15s, color 0.15s',
  _hover: { bg: 'surfaceMuted', color: 'text' },
  '&[aria-current=page]': {
    bg: 'brand.50',
    color: 'brand.700',
    _hover: { bg: 'brand.100', color: 'brand.700' },
  },
})

const newChatStyle = css({
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  gap: '2',
  h: { base: '9', md: '10' },
  px: '4',
  flex: { base: '1', md: 'none' },
  mb: { base: '0', md: '4' },
  borderRadius: 'lg',
  fontSize: 'sm',
  fontWeight: 'medium',
  textDecoration: 'none',
  bg: 'accent',
  color: 'onAccent',
  transition: 'background 0.15s',
  _hover: { bg: 'accentHover' },
})

/**
 * "New chat", first in the sidebar as every chat app has it (D86): a link to the chat section,
 * which starts a new chat (product §2), from any section or conversation, the focus in its message box.
 */
function NewChatLink() {
  const { isShown, startNewChat } = useDashboard()
  return (
    <Link
      href="/chat"
      replace={isShown('chat')}
      className={newChatStyle}
      onClick={() => {
        startNewChat()
        focusMessageBox()
      }}
    >
      <PlusIcon size={16} />
      New chat
    </Link>
  )
}

// "New chat" and, beside it, the menu of assistants (new-chat-menu.tsx) share its row.
const newChatRowStyle = css({ display: 'flex', gap: '2', flex: '1', '& > a': { flex: '1' } })

/** Below 768 px the sections and their extras are a drawer over the page, opened by "Menu". */
const drawerStyle = css({
  display: 'none',
  '&[data-open]': {
    display: 'flex',
    position: 'fixed',
    top: '0',
    bottom: '0',
    left: '0',
    zIndex: '50',
    w: 'min(20rem, 85vw)',
    p: '4',
    bg: 'surface',
    borderRightWidth: '1px',
    borderColor: 'border',
    boxShadow: 'xl',
    overflowY: 'auto',
    overscrollBehavior: 'contain',
  },
  flexDirection: 'column',
  md: {
    display: 'flex',
    '&[data-open]': { position: 'static', w: 'auto', p: '0', boxShadow: 'none', borderRightWidth: '0' },
  },
})
const backdropStyle = css({
  position: 'fixed',
  inset: '0',
  zIndex: '40',
  bg: 'rgba(15, 23, 42, 0.45)',
  md: { display: 'none' },
})
// On wide screens "New chat" stays at the top of the sidebar however long its list grows (issue
// 40, item 9): it sticks over the column's own padding, on the sidebar's background. A sticky top
// is measured inside that padding, hence -4 to reach the edge.
const barStyle = css({
  display: 'flex',
  gap: '2',
  alignItems: 'center',
  md: {
    display: 'block',
    position: 'sticky',
    top: '-4',
    zIndex: '1',
    bg: 'surface',
    mt: '-4',
    pt: '4',
    mx: '-4',
    px: '4',
  },
})

/**
 * The sections of product §2 (the route table's sidebar entries), each a link to its address
 * (open it in a new tab, bookmark it), with "New chat" above them and the section's extras below:
 * a column beside the content on wide screens; on phones a drawer behind "Menu" ("New chat" stays beside it, in reach), closed by
 * choosing a link, Escape, Close or a tap beside it, which give the focus back to "Menu".
 */
export function DashboardSidebar() {
  const { section, isShown, startNewChat } = useDashboard()
  const screen = useScreen()?.screen
  const Extras = screen ? sectionOf(screen).Extras : undefined
  const [open, setOpen] = useState(false)
  const menuButton = useRef<HTMLButtonElement>(null)
  const drawer = useRef<HTMLDivElement>(null)
  // Opening moves the focus into the drawer (its first link).
  useEffect(() => {
    if (open) drawer.current?.querySelector<HTMLElement>('a[href]')?.focus()
  }, [open])
  const drawerId = useId()
  const close = (returnFocus: boolean) => {
    setOpen(false)
    if (returnFocus) menuButton.current?.focus()
  }
  return (
    <aside
      className={css({
        bg: 'surface',
        borderColor: 'border',
        borderBottomWidth: { base: '1px', md: '0' },
        borderRightWidth: { base: '0', md: '1px' },
        px: { base: '2', md: '4' },
        py: { base: '1.5', md: '4' },
        minW: '0',
        minH: '0',
        overflowY: { md: 'auto' },
      })}
    >
      <div className={barStyle}>
        <Button
          ref={menuButton}
          variant="secondary"
          className={css({ h: '9', md: { display: 'none' } })}
          aria-expanded={open}
          aria-controls={drawerId}
          onClick={() => setOpen(!open)}
        >
          <MenuIcon size={16} />
          Menu
        </Button>
        <div className={newChatRowStyle}>
          <NewChatLink />
          <NewChatMenu />
        </div>
      </div>
      {open ? <div aria-hidden="true" className={backdropStyle} onClick={() => close(true)} /> : null}
      {/* biome-ignore lint/a11y/noStaticElementInteractions: Escape and a followed link close the drawer; the controls inside are the interactive elements */}
      <div
        id={drawerId}
        data-open={open ? '' : undefined}
        className={drawerStyle}
        ref={drawer}
        onKeyDown={(event) => {
          if (open && event.key === 'Escape') {
            event.preventDefault()
            close(true)
          }
        }}
        onClick={(event) => {
          // Following a link closes the drawer: the page it opens is what the person wants to see.
          if (open && (event.target as Element).closest('a[href]')) close(false)
        }}
      >
        {open ? (
          <Button
            variant="ghost"
            size="sm"
            className={css({ alignSelf: 'flex-end', mb: '2', md: { display: 'none' } })}
            onClick={() => close(true)}
          >
            <CloseIcon size={14} />
            Close
          </Button>
        ) : null}
        <nav aria-label="Dashboard sections">
          <ul className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
            {SIDEBAR.map(({ id, path, label, icon }) => (
              <li key={id}>
                <Link
                  href={path}
                  replace={isShown(id)}
                  className={itemStyle}
                  aria-current={section === id ? 'page' : undefined}
                  onClick={id === 'chat' ? startNewChat : undefined}
                >
                  {icon}
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        {Extras ? <Extras key={section} /> : null}
      </div>
    </aside>
  )
}
