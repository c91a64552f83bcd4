import { likeNeedle } from '../crud/list-query';
import { SqlParams } from '../database/sql-params';
import { Inject, Injectable } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import type { Scope } from '../access/scope';
import type { TGetListParams } from '../crud/crud.schema';
import { DATA_SOURCE } from '../database/database.module';
import { SqlRepository, type Transactional } from '../database/repository';
import { ownedOrVisibleSystemSql, systemSharesSql } from '../tenancy/visibility';
import { HOSTED_FILE_FILTERS, HOSTED_FILE_SORTS, type THostedFile } from './files.schema';
import { textOf } from '../../../shared/common/text';

/** A hosted_file row (the record without its download url). */
export type FileRow = Omit<THostedFile, 'url'>;

/** A list call already checked by the service: known filters, sort and reference only. */
export interface FileListParams {
  pagination: TGetListParams['pagination'];
  sort: { field: string; order: 'ASC' | 'DESC' };
  filter: Record<string, unknown>;
  reference?: { target: string; id: string };
}

/** A file to record; the caller is recorded as the uploader. */
export interface NewFile {
  id: string;
  objectKey: string;
  contentType: string;
  rootDomainName: string | null;
  domainName: string | null;
  company_cuid: string | null;
  system_cuid: string | null;
  size: number;
  fileName: string | null;
}

/**
 * The SQL of hosted files. Every method takes the caller's scope first: a "visible" file is owned
 * by one of the caller's companies or belongs to a system visible to them (tenancy/visibility.ts;
 * a superuser sees all). Methods that say "unscoped" read by id on purpose (a download decides
 * itself, an existence check, the orphan sweep that runs for nobody). No rules here: the service
 * decides what a missing row or a policy answer means.
 */
export interface FilesRepository extends Transactional<FilesRepository> {
  list(scope: Scope, params: FileListParams): Promise<{ data: FileRow[]; total: number }>;
  visibleMany(scope: Scope, ids: string[]): Promise<FileRow[]>;
  /** Unscoped: a file by id (a download judges it). */
  byId(scope: Scope, id: string): Promise<FileRow | undefined>;
  /** Unscoped (checked by the caller). */
  delete(scope: Scope, ids: string[]): Promise<void>;
  /** Records a file; the caller is its uploader. */
  insert(scope: Scope, file: NewFile): Promise<FileRow>;

  /** Unscoped: the queued object keys of deleted files, oldest first. */
  orphanKeys(scope: Scope, limit: number): Promise<string[]>;
  /** Unscoped: takes keys off the queue. */
  forgetOrphans(scope: Scope, keys: string[]): Promise<void>;

  /** Unscoped: a domain's root domain, undefined when there is no such domain. */
  domain(scope: Scope, name: string): Promise<{ root_domain_name: string } | undefined>;
  /** Unscoped: whether the root domain exists. */
  rootDomainExists(scope: Scope, name: string): Promise<boolean>;
  /** Unscoped (the service judges visibility): a system's owner and shares, what the policy needs. */
  systemWithShares(scope: Scope, system_cuid: string): Promise<{ company_cuid: string; shares: { company_cuid: string; change: boolean }[] } | undefined>;
  /** Unscoped: whether the company exists. */
  companyExists(scope: Scope, company_cuid: string): Promise<boolean>;
}

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

/** A column a list may filter or sort by, never from input unchecked. */
function column(field: string, allowed: readonly string[]): string {
  if (field === 'id' || allowed.includes(field)) return field;
  throw new Error(`Unknown hosted file column: ${field}`);
}

@Injectable()
export class SqlFilesRepository extends SqlRepository<FilesRepository> implements FilesRepository {
  constructor(@Inject(DATA_SOURCE) ds: DataSource) {
    super(ds);
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
        const needle = p.add(likeNeedle(textOf(value)));
        parts.push(`(${SEARCH.map((c) => `t."${c}"::text ILIKE ${needle}`).join(' OR ')})`);
        continue;
      }
      const name = column(field, HOSTED_FILE_FILTERS);
      if (value === null) parts.push(`t."${name}" IS NULL`);
      else if (Array.isArray(value)) parts.push(`t."${name}"::text = ANY(${p.add(value.map(String))}::text[])`);
      else parts.push(`t."${name}"::text = ${p.add(textOf(value))}`);
    }
    return parts;
  }

  async list(scope: Scope, params: FileListParams) {
    const p = new SqlParams();
    const where = [this.scopeSql(scope, p), ...this.filterSql(params.filter, p)];
    if (params.reference) where.push(`t."${column(params.reference.target, HOSTED_FILE_FILTERS)}"::text = ${p.add(params.reference.id)}`);
    const sortField = column(params.sort.field, HOSTED_FILE_SORTS);
    const countParams = [...p.values];
    const { page, perPage } = params.pagination;
    const [rows, [{ n }]] = await Promise.all([
      this.db.query(
        `SELECT ${SELECT} FROM hosted_file t WHERE ${where.join(' AND ')}
          ORDER BY t."${sortField}" ${params.sort.order === 'DESC' ? 'DESC' : 'ASC'} NULLS LAST, t.id ASC
          LIMIT ${p.add(perPage)} OFFSET ${p.add((page - 1) * perPage)}`,
        p.values,
      ) as Promise<FileRow[]>,
      this.db.query(`SELECT count(*)::int AS n FROM hosted_file t WHERE ${where.join(' AND ')}`, countParams) as Promise<{ n: number }[]>,
    ]);
    return { data: rows, total: Number(n) };
  }

  async visibleMany(scope: Scope, ids: string[]): Promise<FileRow[]> {
    if (!ids.length) return [];
    const p = new SqlParams();
    const idList = p.add(ids);
    return (await this.db.query(
      `SELECT ${SELECT} FROM hosted_file t WHERE t.id = ANY(${idList}::varchar[]) AND ${this.scopeSql(scope, p)}`,
      p.values,
    )) as FileRow[];
  }

  async byId(_scope: Scope, id: string): Promise<FileRow | undefined> {
    const [row] = (await this.db.query(`SELECT ${SELECT} FROM hosted_file t WHERE t.id = $1`, [id])) as FileRow[];
    return row;
  }

  async delete(_scope: Scope, ids: string[]): Promise<void> {
    await this.db.query(`DELETE FROM hosted_file WHERE id = ANY($1::varchar[])`, [ids]);
  }

  async insert(scope: Scope, file: NewFile): Promise<FileRow> {
    const [row] = (await this.db.query(
      `INSERT INTO hosted_file (id, "objectKey", "contentType", "rootDomainName", "domainName", company_cuid, system_cuid, size, "fileName", uploaded_by_user_cuid)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       RETURNING ${COLUMNS.map((c) => `"${c}"`).join(', ')}`,
      [
        file.id,
        file.objectKey,
        file.contentType,
        file.rootDomainName,
        file.domainName,
        file.company_cuid,
        file.system_cuid,
        file.size,
        file.fileName,
        scope.user_cuid,
      ],
    )) as FileRow[];
    return row;
  }

  async orphanKeys(_scope: Scope, limit: number): Promise<string[]> {
    const rows = (await this.db.query(`SELECT "objectKey" FROM hosted_file_orphan ORDER BY deleted_at LIMIT $1`, [limit])) as { objectKey: string }[];
    return rows.map((r) => r.objectKey);
  }

  async forgetOrphans(_scope: Scope, keys: string[]): Promise<void> {
    await this.db.query(`DELETE FROM hosted_file_orphan WHERE "objectKey" = ANY($1::varchar[])`, [keys]);
  }

  async domain(_scope: Scope, name: string) {
    const [domain] = (await this.db.query(`SELECT name, root_domain_name FROM domain WHERE name = $1`, [name])) as { root_domain_name: string }[];
    return domain;
  }

  async rootDomainExists(_scope: Scope, name: string): Promise<boolean> {
    const [root] = await this.db.query(`SELECT name FROM root_domain WHERE name = $1`, [name]);
    return !!root;
  }

  async systemWithShares(_scope: Scope, system_cuid: string) {
    const [system] = (await this.db.query(`SELECT s.company_cuid, ${systemSharesSql('s')} AS shares FROM system s WHERE s.system_cuid = $1`, [
      system_cuid,
    ])) as { company_cuid: string; shares: { company_cuid: string; change: boolean }[] }[];
    return system;
  }

  async companyExists(_scope: Scope, company_cuid: string): Promise<boolean> {
    const [company] = await this.db.query(`SELECT 1 FROM company WHERE company_cuid = $1`, [company_cuid]);
    return !!company;
  }
}
