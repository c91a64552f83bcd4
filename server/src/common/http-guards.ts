import type { FastifyReply, FastifyRequest } from 'fastify';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The request's own origin (scheme, host and port) as the browser sees it; behind a trusted proxy, its X-Forwarded-* view. */
export function ownOrigin(req: FastifyRequest): string | undefined {
  try {
    return new URL(`${req.protocol}://${req.host}`).origin;
  } catch {
    return undefined;
  }
}

/**
 * Refuses state-changing requests sent from another site: a foreign `Origin` (scheme, host and port
 * compared, so http:// and https:// of one host differ), an opaque `null` one, or a browser that
 * says the request is cross-site. Requests without either (curl, controllers) pass; they carry no
 * ambient cookie a third party could abuse, and the SameSite=Strict cookie covers the rest.
 */
export function isForeignMutation(req: FastifyRequest, allowedOrigins: ReadonlySet<string>): boolean {
  if (!UNSAFE.has(req.method)) return false;
  if (req.headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = req.headers.origin;
  if (!origin) return false;
  if (origin === 'null') return true;
  let claimed: string;
  try {
    claimed = new URL(origin).origin;
  } catch {
    return true;
  }
  if (allowedOrigins.has(claimed)) return false;
  return claimed !== ownOrigin(req);
}

/**
 * Applied to every unsafe request whatever its path: a path test on the raw URL missed spellings
 * the router decodes to the same route (`/%61pi/files`).
 */
export function foreignOriginHook(allowedOrigins: string[]) {
  const allowed = new Set(
    allowedOrigins
      .map((o) => o.trim())
      .filter(Boolean)
      .map((o) => {
        try {
          return new URL(o).origin;
        } catch {
          return o.replace(/\/$/, '');
        }
      }),
  );
  return async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (isForeignMutation(req, allowed)) {
      await reply.code(403).send({ code: 'FORBIDDEN', message: 'Requests from another site are refused' });
    }
  };
}

/** Routes (as the router matched them, not as the URL spells them) that take JSON bodies only. */
const JSON_ONLY_ROUTES = new Set(['/api/auth/login', '/api/auth/logout', '/api/auth/forgot', '/api/auth/reset']);

/**
 * Login and logout take JSON only: a form (urlencoded, multipart, text/plain) is what another page
 * can post without a CORS preflight, so it is refused with 415 before its body is read.
 */
export function jsonOnlyHook(req: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const type = req.headers['content-type'];
  if (JSON_ONLY_ROUTES.has(req.routeOptions.url ?? '') && type !== undefined && !/^application\/json\s*(;|$)/i.test(type)) {
    void reply.code(415).send({ code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send the request as application/json' });
    return;
  }
  done();
}

const SECURITY_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  // Images may come from https (company logos and brand images are URLs); scripts only from here.
  'content-security-policy':
    "default-src 'self'; img-src 'self' data: blob: https:; object-src 'none'; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
};

/** Names of the headers securityHeadersHook sets (a 304 leaves them out: see conditional.ts). */
export const SECURITY_HEADER_NAMES: readonly string[] = Object.keys(SECURITY_HEADERS);

/** Headers every answer carries. */
export function securityHeadersHook(_req: FastifyRequest, reply: FastifyReply, done: () => void): void {
  reply.headers(SECURITY_HEADERS);
  done();
}
