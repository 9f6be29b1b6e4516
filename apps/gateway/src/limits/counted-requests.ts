import { AsyncLocalStorage } from 'node:async_hooks';

const countedAlready = new AsyncLocalStorage<true>();

/**
 * Sends an in-process API request whose caller has already counted it in the account's bucket:
 * an MCP tool call's request, counted as its JSON-RPC message when the MCP POST came in
 * (McpController), so that it counts once. Only code in this process can send a request here;
 * nothing a client sends can mark its own request as counted.
 */
export function sendCounted<T>(send: () => PromiseLike<T>): Promise<T> {
  // Awaited inside the scope: fastify.inject answers a thenable that starts the request only
  // when awaited, which an await outside the scope would do outside it.
  return countedAlready.run(true, async () => {
    const answer = await send();
    return answer;
  });
}

/** Whether the request being handled was counted before it was sent (`sendCounted`). */
export function isCountedAlready(): boolean {
  return countedAlready.getStore() === true;
}
