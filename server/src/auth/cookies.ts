import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE, SESSION_MAX_AGE_SECONDS } from './session-cookie';

/** Spec §9: 7 days, SameSite=Strict; HttpOnly always, Secure under HTTPS. */
function options(req: FastifyRequest): CookieSerializeOptions {
  return { httpOnly: true, sameSite: 'strict', secure: req.protocol === 'https', path: '/' };
}

export function setSessionCookie(req: FastifyRequest, reply: FastifyReply, value: string): void {
  reply.setCookie(SESSION_COOKIE, value, { ...options(req), maxAge: SESSION_MAX_AGE_SECONDS });
}

export function clearSessionCookie(req: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, options(req));
}

export function readSessionCookie(req: FastifyRequest): string | undefined {
  const value = req.cookies?.[SESSION_COOKIE];
  return typeof value === 'string' && value ? value : undefined;
}
