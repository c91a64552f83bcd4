import type { CookieOptions, Request, Response } from 'express';
import { SESSION_COOKIE, SESSION_MAX_AGE_SECONDS } from './session-cookie';

/** Spec §9: 7 days, SameSite=Strict; HttpOnly always, Secure under HTTPS. */
function options(req: Request): CookieOptions {
  return { httpOnly: true, sameSite: 'strict', secure: req.secure, path: '/' };
}

export function setSessionCookie(req: Request, res: Response, value: string): void {
  res.cookie(SESSION_COOKIE, value, { ...options(req), maxAge: SESSION_MAX_AGE_SECONDS * 1000 });
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(SESSION_COOKIE, options(req));
}

export function readSessionCookie(req: Request): string | undefined {
  const value = (req.cookies as Record<string, unknown> | undefined)?.[SESSION_COOKIE];
  return typeof value === 'string' && value ? value : undefined;
}
