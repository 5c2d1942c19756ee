import type { FastifyPluginAsync } from 'fastify'

/**
 * Marks a plugin so its decorators and hooks apply to the whole app rather than to its own
 * encapsulated context: what the `fastify-plugin` package does, through the same documented
 * `skip-override` symbol, without adding a dependency for one line.
 */
export function sharedPlugin<Options extends object>(
  name: string,
  plugin: FastifyPluginAsync<Options>,
): FastifyPluginAsync<Options> {
  return Object.assign(plugin, {
    [Symbol.for('skip-override')]: true,
    [Symbol.for('fastify.display-name')]: name,
  })
}
