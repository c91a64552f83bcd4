/**
 * A small Telegram Bot API client (fetch): getMe, sendMessage (parse_mode HTML) and getUpdates
 * (long polling). The token is part of every URL: it never leaves this file, and every error
 * message is scrubbed of it.
 */
export interface TelegramChat {
  id: number;
  type: string;
  title?: string;
  username?: string;
  first_name?: string;
  last_name?: string;
}
export interface TelegramMessage {
  message_id: number;
  chat: TelegramChat;
  text?: string;
  migrate_to_chat_id?: number;
}
export interface TelegramUpdate {
  update_id: number;
  message?: TelegramMessage;
  channel_post?: TelegramMessage;
  my_chat_member?: { chat: TelegramChat; new_chat_member: { status: string } };
}
export interface TelegramAnswer<T> {
  ok: boolean;
  result?: T;
  error_code?: number;
  description?: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
}

export class TelegramBotApi {
  constructor(
    private readonly apiUrl: string,
    private readonly token: string,
    private readonly timeoutMs: number,
  ) {}

  /** Calls a method; answers Telegram's JSON. Throws (scrubbed) only when no answer came. */
  async call<T>(
    method: string,
    params: Record<string, unknown>,
    opts: { signal?: AbortSignal; timeoutMs?: number } = {},
  ): Promise<TelegramAnswer<T> & { status: number }> {
    // One controller per call, tied to the caller's long-lived signal only while the call runs.
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new DOMException('timeout', 'TimeoutError')), opts.timeoutMs ?? this.timeoutMs);
    const onAbort = () => controller.abort(opts.signal?.reason);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    if (opts.signal?.aborted) controller.abort(opts.signal.reason);
    const signal = controller.signal;
    try {
      const res = await fetch(`${this.apiUrl.replace(/\/+$/, '')}/bot${this.token}/${method}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(params),
        redirect: 'manual',
        signal,
      });
      const text = await res.text();
      let body: TelegramAnswer<T>;
      try {
        body = JSON.parse(text) as TelegramAnswer<T>;
      } catch {
        body = { ok: false, error_code: res.status, description: `HTTP ${res.status}` };
      }
      return { ...body, status: res.status };
    } catch (e) {
      // eslint-disable-next-line preserve-caught-error -- the cause may quote the bot's token; the scrubbed message says what failed
      throw new Error(this.scrub(`Telegram ${method}: ${describe(signal.aborted ? signal.reason : e)}`));
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    }
  }

  getMe(): Promise<TelegramAnswer<{ id: number; username?: string; first_name: string }> & { status: number }> {
    return this.call('getMe', {});
  }

  sendMessage(chat_id: string, html: string) {
    return this.call<TelegramMessage>('sendMessage', { chat_id, text: html, parse_mode: 'HTML', link_preview_options: { is_disabled: true } });
  }

  getUpdates(offset: number, timeoutSeconds: number, signal: AbortSignal) {
    return this.call<TelegramUpdate[]>(
      'getUpdates',
      { offset, timeout: timeoutSeconds, allowed_updates: ['message', 'channel_post', 'my_chat_member'] },
      { signal, timeoutMs: timeoutSeconds * 1000 + this.timeoutMs },
    );
  }

  /** A text without the token (errors, descriptions). */
  scrub(s: string): string {
    return this.token ? s.split(this.token).join('<token>') : s;
  }
}

export function describe(e: unknown): string {
  const err = e as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError') return 'no answer in time';
  return err?.cause?.code ?? err?.cause?.message ?? err?.message ?? 'error';
}
