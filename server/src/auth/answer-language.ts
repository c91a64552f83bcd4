import type { FastifyReply, FastifyRequest } from 'fastify';
import { callerLocale } from '../common/locale';
import { messageCode, translate } from '../common/messages';
import { readSessionCookie } from './cookies';
import type { SessionService } from './session.service';

/**
 * REST error answers in the caller's language: an `onSend` hook that rewrites the JSON error
 * bodies of every HTTP route ({code, message[, fieldErrors]}: sign-in, session, files, exports,
 * telemetry, commands, unknown API paths …) with the message translated, `messageCode` (the
 * catalogue key) beside it, and each field error's message translated. The language is the
 * session's user's choice, else the browser's Accept-Language, else English. tRPC answers are
 * translated by its error formatter and pass untouched.
 */
export function errorAnswerLanguageHook(sessions: SessionService) {
  return async (req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> => {
    if (reply.statusCode < 400 || typeof payload !== 'string' || payload.length > 65_536) return payload;
    if (req.url.startsWith('/api/trpc')) return payload;
    if (!/json/i.test(String(reply.getHeader('content-type') ?? ''))) return payload;
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      return payload;
    }
    if (!body || typeof body !== 'object' || Array.isArray(body) || typeof (body as { message?: unknown }).message !== 'string') return payload;
    const answer = body as { message: string; messageCode?: string; fieldErrors?: unknown };
    const locale = callerLocale(sessions.languageMetaOf(readSessionCookie(req)), req.headers['accept-language']);
    const code = messageCode(answer.message);
    const out: Record<string, unknown> = { ...answer, message: translate(answer.message, locale), ...(code ? { messageCode: code } : {}) };
    if (Array.isArray(answer.fieldErrors)) {
      out.fieldErrors = answer.fieldErrors.map((f: unknown) =>
        f && typeof f === 'object' && typeof (f as { message?: unknown }).message === 'string'
          ? { ...f, message: translate((f as { message: string }).message, locale) }
          : f,
      );
    }
    return JSON.stringify(out);
  };
}
