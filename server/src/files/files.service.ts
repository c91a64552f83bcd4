import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { TRPCError } from '@trpc/server';
import type { DataSource } from 'typeorm';
import { type Actor, can, fileMayBelongTo, isMemberOf, isSuperUser, mayUploadBrandAsset, seesSystem, uploadCompanyOfSystem } from '../access/policy';
import { forbidden, notFound } from '../common/errors';
import { newCuid } from '../common/ids';
import { scopeOf, type Scope } from '../access/scope';
import { ownedOrVisibleSystemSql, systemSharesSql } from '../tenancy/visibility';
import { AppConfig } from '../config/config';
import type { TGetListParams } from '../crud/crud.schema';
import { fieldError } from '../crud/field-error';
import { DATA_SOURCE } from '../database/database.module';
import { SqlParams } from '../database/sql-params';
import { checkContent, cleanFileName } from './content-type';
import { FileStorage, isObjectKey, objectKeyFor, type StoredObject } from './file-storage';
import { HOSTED_FILE_FILTERS, HOSTED_FILE_SORTS, type THostedFile, type TUploadFields } from './files.schema';

type Row = Omit<THostedFile, 'url'>;

const COLUMNS = [
  'id',
  'objectKey',
  'contentType',
  'rootDomainName',
  'domainName',
  'company_cuid',
  'system_cuid',
  'size',
  'fileName',
  'uploaded_by_user_cuid',
  'created_at',
] as const;
const SELECT = COLUMNS.map((c) => `t."${c}"`).join(', ');
const SEARCH = ['fileName', 'contentType'] as const;

/** An upload as the controller hands it over: the bytes, what the client said they are, their name. */
export interface UploadedBytes {
  bytes: Buffer;
  declaredType: string | undefined;
  fileName: string | undefined;
}

/** Where an upload will belong, once checked. */
interface Owner {
  company_cuid: string | null;
  system_cuid: string | null;
  rootDomainName: string | null;
  domainName: string | null;
}

/** What a download needs to answer. */
export interface Download {
  file: THostedFile;
  object: StoredObject;
  /** A brand asset asked for on its own domain: served to anyone, cacheable by proxies. */
  public: boolean;
}

/** Is `host` (lower-case, no port) the domain a brand asset belongs to? */
export function isBrandHost(file: Pick<Row, 'rootDomainName' | 'domainName'>, host: string): boolean {
  if (!host) return false;
  if (file.domainName) return host === file.domainName;
  if (file.rootDomainName) return host === file.rootDomainName || host.endsWith(`.${file.rootDomainName}`);
  return false;
}

const isBrandAsset = (f: Pick<Row, 'rootDomainName' | 'domainName'>) => Boolean(f.rootDomainName || f.domainName);

/**
 * Hosted files: upload (checked, then stored, then recorded), download, and the records for the
 * back office. Every read is limited to the caller's companies: the owner company, or a company
 * the file's system is shared with; a superuser sees all. Brand assets (a root domain or domain
 * set) are uploaded and deleted with admin actions only, and are public on their own domain.
 */
@Injectable()
export class FilesService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(FilesService.name);
  readonly allowedTypes: ReadonlySet<string>;
  private readonly maxBytes: number;
  private readonly sweepMs: number;
  private sweeper?: NodeJS.Timeout;
  private firstSweep?: NodeJS.Timeout;

  constructor(
    @Inject(DATA_SOURCE) private readonly ds: DataSource,
    private readonly storage: FileStorage,
    config: AppConfig,
  ) {
    this.sweepMs = config.FILES_SWEEP_SECONDS * 1000;
    this.maxBytes = config.FILES_MAX_BYTES;
    this.allowedTypes = new Set(
      config.FILES_ALLOWED_TYPES.split(',')
        .map((t) => t.trim().toLowerCase())
        .filter(Boolean),
    );
  }

  onModuleInit(): void {
    if (!this.sweepMs) return;
    this.firstSweep = setTimeout(() => void this.sweepOrphans(), Math.min(30_000, this.sweepMs));
    this.sweeper = setInterval(() => void this.sweepOrphans(), this.sweepMs);
    this.firstSweep.unref();
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    clearTimeout(this.firstSweep);
    clearInterval(this.sweeper);
  }

  /**
   * Removes from storage the objects whose rows are gone (the database queues their keys in
   * hosted_file_orphan on every delete, cascades included). A failed removal stays queued for the
   * next sweep. Returns how many keys left the queue.
   */
  async sweepOrphans(limit = 500): Promise<number> {
    try {
      const keys = (
        (await this.ds.query(`SELECT "objectKey" FROM hosted_file_orphan ORDER BY deleted_at LIMIT $1`, [limit])) as { objectKey: string }[]
      ).map((r) => r.objectKey);
      const done: string[] = [];
      for (const key of keys) {
        if (!isObjectKey(key)) {
          this.logger.warn(`Dropping a queued object key the server did not make: ${JSON.stringify(key)}`);
          done.push(key);
          continue;
        }
        try {
          await this.storage.delete(key);
          done.push(key);
        } catch (e) {
          this.logger.warn(`Object ${key} could not be removed (will retry): ${(e as Error).message}`);
        }
      }
      if (done.length) await this.ds.query(`DELETE FROM hosted_file_orphan WHERE "objectKey" = ANY($1::varchar[])`, [done]);
      return done.length;
    } catch (e) {
      this.logger.warn(`Sweeping deleted files failed: ${(e as Error).message}`);
      return 0;
    }
  }

  limits(): { maxBytes: number; allowedTypes: string[] } {
    return { maxBytes: this.maxBytes, allowedTypes: [...this.allowedTypes] };
  }

  private toRecord(row: Row): THostedFile {
    return { ...row, size: Number(row.size), url: `/api/files/${row.id}` };
  }

  /** SQL condition limiting `t` (hosted_file) to what the caller may see. */
  private scopeSql(scope: Scope, p: SqlParams): string {
    return ownedOrVisibleSystemSql(scope, p, { company: 't.company_cuid', system: 't.system_cuid' });
  }

  private filterSql(filter: Record<string, unknown>, p: SqlParams): string[] {
    const parts: string[] = [];
    for (const [field, value] of Object.entries(filter)) {
      if (value === undefined || value === '') continue;
      if (field === 'q') {
        const needle = p.add(`%${String(value).replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
        parts.push(`(${SEARCH.map((c) => `t."${c}"::text ILIKE ${needle}`).join(' OR ')})`);
        continue;
      }
      const column = field === 'id' ? 'id' : (HOSTED_FILE_FILTERS as readonly string[]).includes(field) ? field : undefined;
      if (!column) throw new TRPCError({ code: 'BAD_REQUEST', message: `Unknown filter: ${field}` });
      if (value === null) parts.push(`t."${column}" IS NULL`);
      else if (Array.isArray(value)) parts.push(`t."${column}"::text = ANY(${p.add(value.map(String))}::text[])`);
      else parts.push(`t."${column}"::text = ${p.add(String(value))}`);
    }
    return parts;
  }

  async getList(actor: Actor, params: TGetListParams, reference?: { target: string; id: string }) {
    const p = new SqlParams();
    const where = [this.scopeSql(scopeOf(actor), p), ...this.filterSql(params.filter, p)];
    if (reference) {
      if (!(HOSTED_FILE_FILTERS as readonly string[]).includes(reference.target)) {
        throw new TRPCError({ code: 'BAD_REQUEST', message: `Unknown reference: ${reference.target}` });
      }
      where.push(`t."${reference.target}"::text = ${p.add(reference.id)}`);
    }
    const sort = params.sort ?? { field: 'created_at', order: 'DESC' as const };
    const sortField = sort.field === 'id' ? 'id' : (HOSTED_FILE_SORTS as readonly string[]).includes(sort.field) ? sort.field : undefined;
    if (!sortField) throw new TRPCError({ code: 'BAD_REQUEST', message: `Cannot sort by ${sort.field}` });
    const countParams = [...p.values];
    const { page, perPage } = params.pagination;
    const [rows, [{ n }]] = await Promise.all([
      this.ds.query(
        `SELECT ${SELECT} FROM hosted_file t WHERE ${where.join(' AND ')}
          ORDER BY t."${sortField}" ${sort.order === 'DESC' ? 'DESC' : 'ASC'} NULLS LAST, t.id ASC
          LIMIT ${p.add(perPage)} OFFSET ${p.add((page - 1) * perPage)}`,
        p.values,
      ) as Promise<Row[]>,
      this.ds.query(`SELECT count(*)::int AS n FROM hosted_file t WHERE ${where.join(' AND ')}`, countParams) as Promise<{ n: number }[]>,
    ]);
    return { data: rows.map((r) => this.toRecord(r)), total: Number(n) };
  }

  private async loadVisible(actor: Actor, ids: string[], manager = this.ds.manager): Promise<Row[]> {
    if (!ids.length) return [];
    const p = new SqlParams();
    const idList = p.add(ids);
    return manager.query(`SELECT ${SELECT} FROM hosted_file t WHERE t.id = ANY(${idList}::varchar[]) AND ${this.scopeSql(scopeOf(actor), p)}`, p.values);
  }

  async getOne(actor: Actor, id: string) {
    const [row] = await this.loadVisible(actor, [id]);
    if (!row) throw notFound('File');
    return { data: this.toRecord(row) };
  }

  async getMany(actor: Actor, ids: string[]) {
    const rows = await this.loadVisible(actor, [...new Set(ids)]);
    return { data: rows.map((r) => this.toRecord(r)) };
  }

  private mayDelete(actor: Actor, row: Row): boolean {
    if (isBrandAsset(row)) return can(actor, 'admin.actions');
    return can(actor, 'files.delete', { company_cuid: row.company_cuid ?? undefined });
  }

  /** Per visible file: may the caller delete it? (Files are never edited: a new version is a new upload.) */
  async access(actor: Actor, ids: string[]) {
    const rows = await this.loadVisible(actor, [...new Set(ids)]);
    const data: Record<string, { edit: boolean; delete: boolean }> = {};
    for (const row of rows) data[row.id] = { edit: false, delete: this.mayDelete(actor, row) };
    return { data };
  }

  async delete(actor: Actor, id: string) {
    const [removed] = await this.deleteRows(actor, [id]);
    return { data: this.toRecord(removed) };
  }

  async deleteMany(actor: Actor, ids: string[]) {
    const removed = await this.deleteRows(actor, [...new Set(ids)]);
    return { data: removed.map((r) => r.id) };
  }

  /** Deletes the rows (all or none), then their objects; an object that cannot be removed now stays queued for the sweep. */
  private async deleteRows(actor: Actor, ids: string[]): Promise<Row[]> {
    const removed = await this.ds.transaction(async (tx) => {
      const rows = await this.loadVisible(actor, ids, tx);
      const byId = new Map(rows.map((r) => [r.id, r]));
      const ordered: Row[] = [];
      for (const id of ids) {
        const row = byId.get(id);
        if (!row) throw notFound('File');
        if (!this.mayDelete(actor, row)) throw forbidden('You may not delete this file');
        ordered.push(row);
      }
      await tx.query(`DELETE FROM hosted_file WHERE id = ANY($1::varchar[])`, [ids]);
      return ordered;
    });
    const gone: string[] = [];
    for (const row of removed) {
      try {
        await this.storage.delete(row.objectKey);
        gone.push(row.objectKey);
      } catch (e) {
        this.logger.warn(`File ${row.id} deleted; its object ${row.objectKey} will be removed by the next sweep: ${(e as Error).message}`);
      }
    }
    if (gone.length) await this.ds.query(`DELETE FROM hosted_file_orphan WHERE "objectKey" = ANY($1::varchar[])`, [gone]);
    return removed;
  }

  /**
   * Where an upload may go, before anything is stored: a company the caller uploads to at level 2
   * (an invisible company or system answers NOT_FOUND, a visible one without the level FORBIDDEN),
   * or a brand asset of an existing root domain / domain for admin actions.
   */
  async authorizeUpload(actor: Actor, fields: TUploadFields): Promise<Owner> {
    const brand = Boolean(fields.rootDomainName || fields.domainName);
    const superuser = isSuperUser(actor);
    let company_cuid = fields.company_cuid ?? null;
    let rootDomainName = fields.rootDomainName ?? null;
    const domainName = fields.domainName ?? null;

    if (brand) {
      if (!mayUploadBrandAsset(actor)) throw forbidden('Brand assets are uploaded by a superuser');
      if (domainName) {
        const [domain] = (await this.ds.query(`SELECT name, root_domain_name FROM domain WHERE name = $1`, [domainName])) as {
          root_domain_name: string;
        }[];
        if (!domain) throw fieldError(['domainName'], 'Domain not found');
        if (rootDomainName && rootDomainName !== domain.root_domain_name) throw fieldError(['rootDomainName'], 'The domain belongs to another root domain');
        rootDomainName = null;
      } else if (rootDomainName) {
        const [root] = await this.ds.query(`SELECT name FROM root_domain WHERE name = $1`, [rootDomainName]);
        if (!root) throw fieldError(['rootDomainName'], 'Root domain not found');
      }
    }

    const system_cuid = fields.system_cuid ?? null;
    if (system_cuid) {
      const [system] = (await this.ds.query(`SELECT s.company_cuid, ${systemSharesSql('s')} AS shares FROM system s WHERE s.system_cuid = $1`, [
        system_cuid,
      ])) as { company_cuid: string; shares: { company_cuid: string; change: boolean }[] }[];
      if (!system || !seesSystem(actor, system)) throw notFound('System');
      // Without a company: the owner's, or else the caller's company that may change the system.
      company_cuid ??= uploadCompanyOfSystem(actor, system);
      if (!company_cuid) throw forbidden('This system is shared with your company read-only');
      if (!fileMayBelongTo(system, company_cuid)) {
        throw fieldError(['system_cuid'], 'This system is not shared with that company for changes');
      }
    }

    if (company_cuid) {
      if (!superuser && !isMemberOf(actor, company_cuid)) throw notFound('Company');
      const [company] = await this.ds.query(`SELECT 1 FROM company WHERE company_cuid = $1`, [company_cuid]);
      if (!company) throw notFound('Company');
      if (!brand && !can(actor, 'files.upload', { company_cuid })) throw forbidden('Uploading files needs level 2 (Expert) in this company');
    } else if (!brand) {
      throw fieldError(['company_cuid'], 'Required');
    }
    return { company_cuid, system_cuid, rootDomainName, domainName };
  }

  /** Checks where the file goes and what it is, stores it, then records it (the object is removed again if recording fails). */
  async upload(actor: Actor, fields: TUploadFields, file: UploadedBytes): Promise<THostedFile> {
    const owner = await this.authorizeUpload(actor, fields);
    const content = checkContent(file.bytes, file.declaredType, this.allowedTypes);
    if (!content.ok) {
      throw new TRPCError({ code: content.status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'BAD_REQUEST', message: content.message });
    }
    const id = newCuid();
    const objectKey = objectKeyFor(id);
    await this.storage.put(objectKey, file.bytes, content.type);
    try {
      const [row] = (await this.ds.query(
        `INSERT INTO hosted_file (id, "objectKey", "contentType", "rootDomainName", "domainName", company_cuid, system_cuid, size, "fileName", uploaded_by_user_cuid)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         RETURNING ${COLUMNS.map((c) => `"${c}"`).join(', ')}`,
        [
          id,
          objectKey,
          content.type,
          owner.rootDomainName,
          owner.domainName,
          owner.company_cuid,
          owner.system_cuid,
          file.bytes.length,
          cleanFileName(file.fileName),
          actor.user_cuid,
        ],
      )) as Row[];
      return this.toRecord(row);
    } catch (e) {
      await this.storage.delete(objectKey).catch(() => undefined);
      throw e;
    }
  }

  /**
   * A file for download: a brand asset asked for on its own domain goes to anyone; anything else
   * needs a session that sees the file. Without a session the answer is UNAUTHORIZED whether or
   * not the id exists; with one, an invisible or unknown id is NOT_FOUND.
   */
  async openForDownload(actor: Actor | undefined, id: string, host: string): Promise<Download> {
    const [row] = /^[a-z0-9]{8,32}$/.test(id)
      ? ((await this.ds.query(`SELECT ${SELECT} FROM hosted_file t WHERE t.id = $1`, [id])) as Row[])
      : [];
    const isPublic = !!row && isBrandAsset(row) && isBrandHost(row, host);
    if (!isPublic) {
      if (!actor) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Sign in to continue' });
      if (!row) throw notFound('File');
      const [visible] = await this.loadVisible(actor, [id]);
      if (!visible) throw notFound('File');
    }
    const object = await this.storage.get(row.objectKey);
    if (!object) {
      this.logger.warn(`File ${row.id}: object ${row.objectKey} is missing from ${this.storage.kind} storage`);
      throw notFound('File');
    }
    return { file: this.toRecord(row), object, public: isPublic };
  }
}
