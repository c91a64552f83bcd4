import type { NextFunction, Request, Response } from 'express';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Refuses state-changing requests sent from another site: a foreign `Origin`, or a browser that
 * says the request is cross-site. Requests without either (curl, controllers) pass; they carry no
 * ambient cookie a third party could abuse, and the SameSite=Strict cookie covers the rest.
 */
export function foreignOriginGuard(allowedOrigins: string[]) {
  const allowed = new Set(allowedOrigins.map((o) => o.trim().replace(/\/$/, '')).filter(Boolean));
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!UNSAFE.has(req.method)) return next();
    const origin = req.headers.origin;
    const site = req.headers['sec-fetch-site'];
    let foreign = site === 'cross-site';
    if (origin && !foreign) {
      if (origin === 'null') foreign = true;
      else if (!allowed.has(origin)) {
        try {
          foreign = new URL(origin).host !== req.headers.host;
        } catch {
          foreign = true;
        }
      }
    }
    if (!foreign) return next();
    res.status(403).json({ code: 'FORBIDDEN', message: 'Requests from another site are refused' });
  };
}

/** Headers every answer carries. */
export function securityHeaders(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'same-origin');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader(
    'Content-Security-Policy',
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'",
  );
  next();
}

/** A malformed JSON body is the sender's mistake: 400 with a plain message, never a stack. */
export function jsonErrorHandler(err: unknown, _req: Request, res: Response, next: NextFunction): void {
  if (!err) return next();
  const e = err as { status?: number; type?: string };
  const status = e.status && e.status >= 400 && e.status < 500 ? e.status : 500;
  const message =
    e.type === 'entity.too.large' ? 'The request body is too large' : status === 500 ? 'Internal server error' : 'The request body is not valid JSON';
  res.status(status).json({ code: status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 500 ? 'INTERNAL_SERVER_ERROR' : 'BAD_REQUEST', message });
}
