/**
 * The connection pools of the client: undici Agents, each a pool per origin, shared by every client of
 * the process.
 */
import { Agent } from "undici";

/**
 * Keep-alive: idle sockets are closed after 4 s unless the server says otherwise, and never kept longer
 * than 50 s; typical load balancers drop idle connections after 60 s, and reusing a socket the other
 * side is closing is the classic source of spurious "socket hang up" errors.
 */
const KEEP_ALIVE_TIMEOUT_MS = 4_000;
const KEEP_ALIVE_MAX_TIMEOUT_MS = 50_000;

/**
 * Agents shared by every client of the process, by their connection settings (in practice one):
 * an Agent keeps one pool per origin, so all the resources of a deployment reuse the same sockets.
 */
const agents = new Map<string, Agent>();

/** The Agent of these connection settings, made at their first request. */
export function agentFor(connectMs: number, connections: number): Agent {
  const key = `${connectMs}|${connections}`;
  let agent = agents.get(key);
  if (!agent) {
    agent = new Agent({
      connections,
      connect: { timeout: connectMs },
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      keepAliveMaxTimeout: KEEP_ALIVE_MAX_TIMEOUT_MS,
    });
    agents.set(key, agent);
  }
  return agent;
}
