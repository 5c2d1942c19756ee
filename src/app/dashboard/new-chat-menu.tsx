/**
 * Beside "New chat" (which stays as the spec has it), a menu of the person's assistants (issue
 * 36): choosing one starts a new chat with it. The list loads when the menu opens, so the
 * dashboard makes no call for it otherwise.
 */
import { Menu } from '@ark-ui/react/menu'
import { useLocation } from 'wouter'
import { Button } from '#src/components/ui/button.tsx'
import { useAssistantsList } from '#src/features/assistants/use-assistants.ts'
import { focusMessageBox } from '#src/features/chat/focus-message-box.ts'
import { menu } from '#src/theme/menu.ts'
import { css } from '../../../styled-system/css'
import { useDashboard } from './use-dashboard.ts'

const ignoreCreated = () => {}

export function NewChatMenu() {
  return (
    <Menu.Root
      aria-label="Start a chat with an assistant"
      loopFocus
      positioning={{ placement: 'bottom-end', gutter: 4 }}
      lazyMount
      unmountOnExit
    >
      <Menu.Trigger asChild>
        <Button
          variant="secondary"
          aria-label="New chat with an assistant"
          title="New chat with an assistant"
          className={css({ h: { base: '9', md: '10' }, px: '2', mb: { base: '0', md: '4' } })}
        >
          <svg
            aria-hidden="true"
            width="16"
            height="16"
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
          >
            <path d="M6 9l6 6 6-6" />
          </svg>
        </Button>
      </Menu.Trigger>
      <Menu.Positioner className={menu.positioner}>
        <Menu.Content className={menu.content}>
          <AssistantItems />
        </Menu.Content>
      </Menu.Positioner>
    </Menu.Root>
  )
}

/** Drawn while the menu is open: its assistants, loaded then. */
function AssistantItems() {
  const { assistants, loading } = useAssistantsList(ignoreCreated)
  const { isShown, startChatWith } = useDashboard()
  const [, navigate] = useLocation()
  if (loading)
    return (
      <Menu.Item value="loading" disabled className={menu.item}>
        Loading your assistants…
      </Menu.Item>
    )
  if (assistants.length === 0)
    return (
      <Menu.Item value="build" className={menu.item} onSelect={() => navigate('/assistants')}>
        No assistants yet: build one
      </Menu.Item>
    )
  return (
    <Menu.ItemGroup>
      <Menu.ItemGroupLabel className={css({ px: '3', py: '1', fontSize: 'xs', color: 'muted' })}>
        New chat with an assistant
      </Menu.ItemGroupLabel>
      {assistants.map((assistant) => (
        <Menu.Item
          key={assistant._id}
          value={assistant._id}
          className={menu.item}
          onSelect={() => {
            startChatWith({ id: assistant._id, name: assistant.name })
            navigate('/chat', { replace: isShown('chat') })
            focusMessageBox()
          }}
        >
          {assistant.name}
        </Menu.Item>
      ))}
    </Menu.ItemGroup>
  )
}
