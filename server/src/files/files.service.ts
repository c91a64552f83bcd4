import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { TRPCError } from '@trpc/server';
import { fieldError } from '../common/field-error';
import {
  type Actor,
  can,
  fileMayBelongTo,
  isMemberOf,
  isSuperUser,
  mayUploadBrandAsset,
  seesSystem,
  uploadCompanyOfSystem,
} from '../../../shared/access/policy';
import { forbidden, notFound } from '../common/errors';
import { newCuid } from '../common/ids';
import { scopeOf, type Scope } from '../access/scope';
import { Budgets } from '../budgets/budgets.service';
import { AppConfig } from '../config/config';
import type { TGetListParams } from '../crud/crud.schema';
import { checkContent, cleanFileName } from './content-type';
import { FileStorage, isObjectKey, objectKeyFor, type StoredObject } from './file-storage';
import { type FileRow as Row, type FilesRepository, SqlFilesRepository } from './files.repository';
import { HOSTED_FILE_FILTERS, HOSTED_FILE_SORTS, type THostedFile, type TUploadFields } from './files.schema';

/** The orphan sweep runs for nobody: its reads are unscoped. */
const NOBODY: Scope = { user_cuid: '', superuser: false, companies: [], adminCompanies: [] };

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
    @Inject(SqlFilesRepository) private readonly rows: FilesRepository,
    private readonly storage: FileStorage,
    config: AppConfig,
    private readonly budgets: Budgets,
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
      const keys = await this.rows.orphanKeys(NOBODY, limit);
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
      if (done.length) await this.rows.forgetOrphans(NOBODY, done);
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

  /** A list call's filters, reference and sort must be known ones (BAD_REQUEST, in that order). */
  private checkList(params: TGetListParams, reference?: { target: string; id: string }) {
    const known = HOSTED_FILE_FILTERS as readonly string[];
    for (const [field, value] of Object.entries(params.filter)) {
      if (value === undefined || value === '' || field === 'q' || field === 'id' || known.includes(field)) continue;
      throw new TRPCError({ code: 'BAD_REQUEST', message: `Unknown filter: ${field}` });
    }
    if (reference && !known.includes(reference.target)) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: `Unknown reference: ${reference.target}` });
    }
    const sort = params.sort ?? { field: 'created_at', order: 'DESC' as const };
    if (sort.field !== 'id' && !(HOSTED_FILE_SORTS as readonly string[]).includes(sort.field)) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: `Cannot sort by ${sort.field}` });
    }
    return sort;
  }

  async getList(actor: Actor, params: TGetListParams, reference?: { target: string; id: string }) {
    const sort = this.checkList(params, reference);
    const { data, total } = await this.rows.list(scopeOf(actor), { pagination: params.pagination, sort, filter: params.filter, reference });
    return { data: data.map((r) => this.toRecord(r)), total };
  }

  private async loadVisible(actor: Actor, ids: string[], rows = this.rows): Promise<Row[]> {
    return rows.visibleMany(scopeOf(actor), ids);
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
    const removed = await this.rows.transaction(async (tx) => {
      const found = await this.loadVisible(actor, ids, tx);
      const byId = new Map(found.map((r) => [r.id, r]));
      const ordered: Row[] = [];
      for (const id of ids) {
        const row = byId.get(id);
        if (!row) throw notFound('File');
        if (!this.mayDelete(actor, row)) throw forbidden('You may not delete this file');
        ordered.push(row);
      }
      await tx.delete(scopeOf(actor), ids);
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
    if (gone.length) await this.rows.forgetOrphans(scopeOf(actor), gone);
    return removed;
  }

  /**
   * Where an upload may go, before anything is stored: a company the caller uploads to at level 2
   * (an invisible company or system answers NOT_FOUND, a visible one without the level FORBIDDEN),
   * or a brand asset of an existing root domain / domain for admin actions.
   */
  async authorizeUpload(actor: Actor, fields: TUploadFields): Promise<Owner> {
    const scope = scopeOf(actor);
    const brand = Boolean(fields.rootDomainName || fields.domainName);
    const superuser = isSuperUser(actor);
    let company_cuid = fields.company_cuid ?? null;
    let rootDomainName = fields.rootDomainName ?? null;
    const domainName = fields.domainName ?? null;

    if (brand) {
      if (!mayUploadBrandAsset(actor)) throw forbidden('Brand assets are uploaded by a superuser');
      if (domainName) {
        const domain = await this.rows.domain(scope, domainName);
        if (!domain) throw fieldError(['domainName'], 'Domain not found');
        if (rootDomainName && rootDomainName !== domain.root_domain_name) throw fieldError(['rootDomainName'], 'The domain belongs to another root domain');
        rootDomainName = null;
      } else if (rootDomainName) {
        if (!(await this.rows.rootDomainExists(scope, rootDomainName))) throw fieldError(['rootDomainName'], 'Root domain not found');
      }
    }

    const system_cuid = fields.system_cuid ?? null;
    if (system_cuid) {
      const system = await this.rows.systemWithShares(scope, system_cuid);
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
      if (!(await this.rows.companyExists(scope, company_cuid))) throw notFound('Company');
      if (!brand && !can(actor, 'files.upload', { company_cuid })) throw forbidden('Uploading files needs level 2 (Expert) in this company');
    } else if (!brand) {
      throw fieldError(['company_cuid'], 'Required');
    }
    return { company_cuid, system_cuid, rootDomainName, domainName };
  }

  /**
   * Checks where the file goes and what it is, stores it, then records it (the object is removed
   * again if recording fails). A company's file goes through its budgets (FILES_COMPANY_MAX_BYTES,
   * FILES_UPLOADS_PER_COMPANY_PER_HOUR): checked before storing, and for good under a lock in the
   * transaction of the insert.
   */
  async upload(actor: Actor, fields: TUploadFields, file: UploadedBytes): Promise<THostedFile> {
    const owner = await this.authorizeUpload(actor, fields);
    const content = checkContent(file.bytes, file.declaredType, this.allowedTypes);
    if (!content.ok) {
      throw new TRPCError({ code: content.status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'BAD_REQUEST', message: content.message });
    }
    const company = owner.company_cuid;
    if (company) await this.budgets.assertFileRoom(company, file.bytes.length);
    const id = newCuid();
    const objectKey = objectKeyFor(id);
    await this.storage.put(objectKey, file.bytes, content.type);
    try {
      const row = await this.rows.transaction(async (rows, tx) => {
        if (company) await this.budgets.spendFileUploadIn(tx, company, file.bytes.length);
        return rows.insert(scopeOf(actor), {
          id,
          objectKey,
          contentType: content.type,
          rootDomainName: owner.rootDomainName,
          domainName: owner.domainName,
          company_cuid: owner.company_cuid,
          system_cuid: owner.system_cuid,
          size: file.bytes.length,
          fileName: cleanFileName(file.fileName),
        });
      });
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
    const row = /^[a-z0-9]{8,32}$/.test(id) ? await this.rows.byId(actor ? scopeOf(actor) : NOBODY, id) : undefined;
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
