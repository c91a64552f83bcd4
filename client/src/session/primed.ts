import type { TSessionContext } from './auth-api';

/**
 * The context the login answer carried, handed to the shell so it starts "loaded" without
 * waiting for its first session check. Cleared once the shell has started.
 */
let primed: TSessionContext | null = null;

export function primeSession(context: TSessionContext): void {
  primed = context;
}

export function readPrimedSession(): TSessionContext | null {
  return primed;
}

export function clearPrimedSession(): void {
  primed = null;
}
