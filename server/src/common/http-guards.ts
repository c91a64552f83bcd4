import type { FastifyReply, FastifyRequest } from 'fastify';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Refuses state-changing requests sent from another site: a foreign `Origin`, or a browser that
 * says the request is cross-site. Requests without either (curl, controllers) pass; they carry no
 * ambient cookie a third party could abuse, and the SameSite=Strict cookie covers the rest.
 */
export function isForeignMutation(req: FastifyRequest, allowedOrigins: ReadonlySet<string>): boolean {
  if (!UNSAFE.has(req.method)) return false;
  if (req.headers['sec-fetch-site'] === 'cross-site') return true;
  const origin = req.headers.origin;
  if (!origin) return false;
  if (origin === 'null') return true;
  if (allowedOrigins.has(origin.replace(/\/$/, ''))) return false;
  try {
    return new URL(origin).host !== req.headers.host;
  } catch {
    return true;
  }
}

export function foreignOriginHook(allowedOrigins: string[]) {
  const allowed = new Set(allowedOrigins.map((o) => o.trim().replace(/\/$/, '')).filter(Boolean));
  return async (req: FastifyRequest, reply: FastifyReply): Promise<void> => {
    if (req.url.startsWith('/api/') && isForeignMutation(req, allowed)) {
      await reply.code(403).send({ code: 'FORBIDDEN', message: 'Requests from another site are refused' });
    }
  };
}

const SECURITY_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  // Images may come from https (company logos and brand images are URLs); scripts only from here.
  'content-security-policy':
    "default-src 'self'; img-src 'self' data: blob: https:; object-src 'none'; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
};

/** Headers every answer carries. */
export function securityHeadersHook(_req: FastifyRequest, reply: FastifyReply, done: () => void): void {
  reply.headers(SECURITY_HEADERS);
  done();
}
