import { Menu } from '@ark-ui/react/menu'
import { type ReactNode, useState } from 'react'
import type { Scope } from '#contracts/chat.ts'
import { Button } from '#src/components/ui/button.tsx'
import { MoreIcon } from '#src/components/ui/dashboard-icons.tsx'
import { menu } from '#src/theme/menu.ts'
import { css } from '../../../styled-system/css'
import { scopeSummary } from './conversation-scope.tsx'
import { RenameForm } from './conversation-title.tsx'

type ConversationBarProps = {
  /** null for a new chat, which has no title yet. */
  title: string | null
  onRename: (title: string) => void
  scope: Scope | null
  assistant: string | null
  saving: boolean
  onChoose: () => void
  onSearchEverything: () => void
  /** The screen's entries for the open conversation (Export, Share), as Menu.Item elements. */
  menuItems?: ReactNode
}

const barStyle = css({ display: 'flex', alignItems: 'center', gap: '2', minH: '9', pb: '1', minW: '0' })
const groupLabelStyle = css({ px: '3', pt: '2', pb: '1', fontSize: 'xs', color: 'muted' })
const separatorStyle = css({ my: '1', borderTopWidth: '1px', borderColor: 'border' })

/**
 * On a phone, the conversation's header is one line (issue 40, item 3): its title and a "⋯" menu
 * holding what the wide layout shows in two rows (Rename, Export, Share, what it searches with
 * Choose documents), so the first message starts near the top of the screen.
 */
export function ConversationBar(props: ConversationBarProps) {
  const { title, onRename, scope, assistant, saving, onChoose, onSearchEverything, menuItems } = props
  const [editing, setEditing] = useState<string | null>(null)
  if (editing !== null && title !== null) {
    return (
      <RenameForm
        initial={editing}
        autoFocus
        onSave={(text) => {
          onRename(text)
          setEditing(null)
        }}
        onCancel={() => setEditing(null)}
      />
    )
  }
  const summary = scopeSummary(scope, assistant)
  return (
    <div className={barStyle}>
      {title === null ? (
        <p className={css({ flex: '1', minW: '0', fontSize: 'sm', color: 'muted', truncate: true })}>
          {summary}
        </p>
      ) : (
        <h2 className={css({ flex: '1', minW: '0', fontSize: 'md', fontWeight: 'semibold', truncate: true })}>
          {title}
        </h2>
      )}
      <Menu.Root loopFocus positioning={{ placement: 'bottom-end', gutter: 4 }} lazyMount unmountOnExit>
        <Menu.Trigger asChild>
          <Button variant="ghost" size="icon" aria-label="Conversation options" title="Conversation options">
            <MoreIcon size={18} />
          </Button>
        </Menu.Trigger>
        <Menu.Positioner className={menu.positioner}>
          <Menu.Content className={menu.content}>
            {title === null ? null : (
              <Menu.Item value="rename" className={menu.item} onSelect={() => setEditing(title)}>
                Rename
              </Menu.Item>
            )}
            {menuItems}
            {title === null && !menuItems ? null : <Menu.Separator className={separatorStyle} />}
            <Menu.ItemGroup>
              <Menu.ItemGroupLabel className={groupLabelStyle}>{summary}</Menu.ItemGroupLabel>
              <Menu.Item value="choose" className={menu.item} onSelect={onChoose}>
                Choose documents
              </Menu.Item>
              {scope === null ? null : (
                <Menu.Item
                  value="everything"
                  className={menu.item}
                  disabled={saving}
                  onSelect={onSearchEverything}
                >
                  Search all documents
                </Menu.Item>
              )}
            </Menu.ItemGroup>
          </Menu.Content>
        </Menu.Positioner>
      </Menu.Root>
    </div>
  )
}
