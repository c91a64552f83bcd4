import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { patience } from './patience';

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The message as received (headers and MIME parts). */
  raw: string;
}

/**
 * A real SMTP server (the smtp-server package) on a random local port: records every message, and
 * answers a temporary (4xx) or permanent (5xx) refusal on demand.
 */
export class SmtpPeer {
  readonly messages: ReceivedMail[] = [];
  private refusals: { code: number; message: string }[] = [];
  private server!: SMTPServer;
  port = 0;

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<SmtpPeer> {
    const peer = new SmtpPeer();
    peer.server = new SMTPServer({
      secure: false,
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const refusal = peer.refusals.shift();
          if (refusal) {
            const err = Object.assign(new Error(refusal.message), { responseCode: refusal.code });
            return callback(err);
          }
          peer.messages.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => peer.server.listen(0, '127.0.0.1', () => resolve()));
    peer.port = (peer.server.server.address() as AddressInfo).port;
    return peer;
  }

  /** The next message is refused with this SMTP code (e.g. 451 try later, 550 no such mailbox). */
  refuseNext(code: number, message = code >= 500 ? 'Mailbox unavailable' : 'Try again later'): void {
    this.refusals.push({ code, message });
  }

  /** Waits for the n-th message (1-based count). */
  async waitFor(count: number, timeoutMs = 10_000): Promise<ReceivedMail> {
    const end = Date.now() + patience(timeoutMs);
    while (this.messages.length < count) {
      if (Date.now() > end) throw new Error(`SMTP peer: ${this.messages.length} messages, expected ${count}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return this.messages[count - 1];
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** A mail's text with quoted-printable soft breaks and escapes undone (enough to find a link in it). */
export function decodeMail(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** The header `name` of a raw mail (unfolded, MIME words left as sent). */
export function mailHeader(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

/** The verification link of a mail, or undefined. */
export const verifyLinkOf = (raw: string): string | undefined =>
  /https?:\/\/[^\s"<>]+\/api\/alerts\/email\/verify\?token=[A-Za-z0-9._-]+/.exec(decodeMail(raw))?.[0];
