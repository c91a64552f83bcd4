import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import { newCuid } from '../../common/ids';
import { AppConfig } from '../../config/config';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** What became of one mail: sent, or refused (an SMTP code says whether trying again may help). */
export type MailResult = { ok: true; file?: string } | { ok: false; temporary: boolean; reason: string };

/**
 * Mails through SMTP (SMTP_URL), or, without it (the embedded default), as .eml files under
 * <DATA_DIR>/mail so a newcomer can open what the portal would have sent.
 */
@Injectable()
export class Mailer implements OnModuleDestroy {
  private readonly logger = new Logger('Mail');
  private readonly transport: Transporter;
  /** The folder mails are written to when there is no SMTP server, else null. */
  readonly folder: string | null;
  private announced = false;

  constructor(private readonly config: AppConfig) {
    if (config.SMTP_URL) {
      this.folder = null;
      this.transport = nodemailer.createTransport({
        url: config.SMTP_URL,
        connectionTimeout: config.CHANNEL_HTTP_TIMEOUT_MS,
        greetingTimeout: config.CHANNEL_HTTP_TIMEOUT_MS,
        socketTimeout: config.CHANNEL_HTTP_TIMEOUT_MS,
      } as never);
    } else {
      this.folder = resolve(join(config.DATA_DIR, 'mail'));
      this.transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    }
  }

  async send(mail: Mail): Promise<MailResult> {
    try {
      const info = await this.transport.sendMail({ from: this.config.MAIL_FROM, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
      if (!this.folder) return { ok: true };
      await mkdir(this.folder, { recursive: true });
      const file = join(this.folder, `${new Date().toISOString().replace(/[:.]/g, '-')}-${newCuid().slice(0, 8)}.eml`);
      await writeFile(file, (info as unknown as { message: Buffer }).message);
      if (!this.announced) {
        this.announced = true;
        this.logger.log(`No SMTP_URL: mails are written as .eml files to ${this.folder}`);
      }
      this.logger.log(`Mail "${mail.subject}" written to ${file}`);
      return { ok: true, file };
    } catch (e) {
      const err = e as { responseCode?: number; code?: string; message?: string };
      const code = err.responseCode;
      // 5xx: the server will never take this mail (unknown mailbox, refused sender); 4xx and
      // connection troubles: later. The message is the server's answer, without our settings.
      if (code && code >= 500) return { ok: false, temporary: false, reason: `The mail server refused the mail (${code})` };
      if (code && code >= 400) return { ok: false, temporary: true, reason: `The mail server deferred the mail (${code})` };
      return { ok: false, temporary: true, reason: `The mail server could not be reached (${err.code ?? 'error'})` };
    }
  }

  onModuleDestroy(): void {
    this.transport.close();
  }
}
