/**
 * GitHub-flavoured markdown (tables, strikethrough, task lists, autolinks, footnotes) for reading
 * only. remark-gfm's plugin registers these two extensions, and also the ones that write GFM back
 * out as markdown, which an answer never is: those brought mdast-util-to-markdown into the answer's
 * chunk. This plugin registers the same two parsing extensions and nothing else.
 */
import { gfmFromMarkdown } from 'mdast-util-gfm'
import { gfm } from 'micromark-extension-gfm'

/** What the parser reads from a processor's data (remark-parse declares the same two fields). */
type ParserData = {
  micromarkExtensions?: ReturnType<typeof gfm>[]
  fromMarkdownExtensions?: ReturnType<typeof gfmFromMarkdown>[]
}

export function remarkGfmParse(this: { data(): unknown }): void {
  const data = this.data() as ParserData
  data.micromarkExtensions ??= []
  data.micromarkExtensions.push(gfm())
  data.fromMarkdownExtensions ??= []
  data.fromMarkdownExtensions.push(gfmFromMarkdown())
}
