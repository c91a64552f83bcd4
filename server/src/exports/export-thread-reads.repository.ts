import { Client } from 'pg';

/** A chunk read failed; `timeout` when PostgreSQL cancelled it for the statement timeout. */
export class ReadFailed extends Error {
  constructor(
    message: string,
    readonly timeout: boolean,
  ) {
    super(message);
  }
}

/**
 * The export thread's own PostgreSQL connection (export-thread.ts): one per thread, opened on
 * first use, every statement under EXPORT_STATEMENT_TIMEOUT_MS; a broken connection is dropped
 * and opened again for the next read.
 */
export class ThreadChunkReads {
  private client?: Client;

  constructor(
    private readonly url: string,
    private readonly statementTimeoutMs: number,
  ) {}

  /** Runs one chunk's SQL (export-stream.ts pivotSql) and returns its rows. */
  async read(sql: string, values: unknown[]): Promise<Record<string, unknown>[]> {
    const client = await this.connection();
    try {
      return (await client.query(sql, values)).rows as Record<string, unknown>[];
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (code !== '57014') await this.drop(client);
      throw new ReadFailed((e as Error).message, code === '57014');
    }
  }

  private async connection(): Promise<Client> {
    if (this.client) return this.client;
    const client = new Client({ connectionString: this.url, application_name: 'portal-export' });
    client.on('error', () => void this.drop(client));
    await client.connect();
    await client.query(`SELECT set_config('statement_timeout', $1, false)`, [`${Math.floor(this.statementTimeoutMs)}ms`]);
    this.client = client;
    return client;
  }

  private async drop(client: Client): Promise<void> {
    if (this.client === client) this.client = undefined;
    await client.end().catch(() => undefined);
  }
}
