import { Readable } from 'node:stream';
import type { Scope } from '../access/scope';
import type { AppConfig } from '../config/config';
import type { Budgets } from '../budgets/budgets.service';
import type { TGetListParams } from '../crud/crud.schema';
import { FileStorage, type StoredObject } from './file-storage';
import type { FileRow, FilesRepository } from './files.repository';
import { FilesService } from './files.service';
import { actor, codeOf } from '../../../test/factories/rules';

/** The rules of FilesService over an in-memory stand-in of its repository and storage (no database). */

class MemoryStorage extends FileStorage {
  readonly kind = 'disk' as const;
  readonly objects = new Map<string, Buffer>();
  failDeletes = false;
  async put(key: string, body: Buffer): Promise<void> {
    this.objects.set(key, body);
  }
  async get(key: string): Promise<StoredObject | undefined> {
    const body = this.objects.get(key);
    return body && { body: Readable.from(body), size: body.length };
  }
  async exists(key: string): Promise<boolean> {
    return this.objects.has(key);
  }
  async delete(key: string): Promise<void> {
    if (this.failDeletes) throw new Error('storage down');
    this.objects.delete(key);
  }
}

const SYSTEMS: Record<string, { company_cuid: string; shares: { company_cuid: string; change: boolean }[] }> = {
  S1: { company_cuid: 'A', shares: [{ company_cuid: 'B', change: false }] },
  S2: { company_cuid: 'B', shares: [{ company_cuid: 'A', change: true }] },
  S3: { company_cuid: 'C', shares: [] },
};

const file = (id: string, company_cuid: string | null, extra: Partial<FileRow> = {}): FileRow => ({
  id,
  objectKey: `${id.slice(0, 2)}/${id}`,
  contentType: 'text/plain',
  rootDomainName: null,
  domainName: null,
  company_cuid,
  system_cuid: null,
  size: '5' as unknown as number,
  fileName: `${id}.txt`,
  uploaded_by_user_cuid: 'someone',
  created_at: new Date(0),
  ...extra,
});

/**
 * Files: fileaaaa1 of A, filebbbb1 of B on system S1 (A's, shared with B), filecccc1 of C,
 * brandxxxx1 a brand asset of root domain example.com. Companies A, B, C.
 */
function world() {
  const files: FileRow[] = [
    file('fileaaaa1', 'A'),
    file('filebbbb1', 'B', { system_cuid: 'S1' }),
    file('filecccc1', 'C'),
    file('brandxxxx1', null, { rootDomainName: 'example.com' }),
  ];
  const orphans: string[] = [];
  const storage = new MemoryStorage();
  for (const f of files) storage.objects.set(f.objectKey, Buffer.from('hello'));
  const calls: string[] = [];
  const mine = (s: Scope, company: string | null) => s.superuser || (company !== null && s.companies.includes(company));
  const visible = (s: Scope, f: FileRow) =>
    mine(s, f.company_cuid) ||
    (f.system_cuid !== null && (mine(s, SYSTEMS[f.system_cuid].company_cuid) || SYSTEMS[f.system_cuid].shares.some((sh) => mine(s, sh.company_cuid))));
  let failInsert = false;
  const repo: FilesRepository = {
    async transaction(work) {
      calls.push('transaction');
      const before = [...files];
      try {
        return await work(repo, { query: async () => [] });
      } catch (e) {
        files.splice(0, files.length, ...before);
        throw e;
      }
    },
    list: async (s, params) => {
      calls.push(`list ${params.sort.field}`);
      const data = files.filter((f) => visible(s, f));
      return { data, total: data.length };
    },
    visibleMany: async (s, ids) => files.filter((f) => ids.includes(f.id) && visible(s, f)),
    byId: async (_s, id) => files.find((f) => f.id === id),
    // Like the database's trigger: a deleted row's object key is queued for the sweep.
    delete: async (_s, ids) => {
      for (const f of files.filter((x) => ids.includes(x.id))) {
        orphans.push(f.objectKey);
        files.splice(files.indexOf(f), 1);
      }
    },
    insert: async (s, n) => {
      if (failInsert) throw new Error('insert failed');
      const row: FileRow = { ...n, fileName: n.fileName ?? '', uploaded_by_user_cuid: s.user_cuid, created_at: new Date(0) };
      files.push(row);
      return row;
    },
    orphanKeys: async (_s, limit) => orphans.slice(0, limit),
    forgetOrphans: async (_s, keys) => {
      for (const k of keys) orphans.splice(orphans.indexOf(k), 1);
    },
    domain: async (_s, name) => (name === 'shop.example.com' ? { root_domain_name: 'example.com' } : undefined),
    rootDomainExists: async (_s, name) => name === 'example.com',
    systemWithShares: async (_s, id) => SYSTEMS[id],
    companyExists: async (_s, id) => ['A', 'B', 'C'].includes(id),
  };
  const config = { FILES_SWEEP_SECONDS: 0, FILES_MAX_BYTES: 1000, FILES_ALLOWED_TYPES: 'text/plain, image/png' } as AppConfig;
  // The budgets' SQL runs in test/budgets/files-budget.spec.ts; here they only record that they were asked.
  const budgets = {
    assertFileRoom: async (company: string, bytes: number) => void calls.push(`room ${company} ${bytes}`),
    spendFileUploadIn: async (_tx: unknown, company: string, bytes: number) => void calls.push(`spend ${company} ${bytes}`),
  } as unknown as Budgets;
  const service = new FilesService(repo, storage, config, budgets);
  return { service, files, orphans, storage, calls, failInsert: () => void (failInsert = true) };
}

const ROOT = actor('root', 'A', 0, true);
const ADMIN_A = actor('adminA', 'A', 1, true);
const EXPERT_A = actor('expertA', 'A', 2);
const BASIC_A = actor('basicA', 'A', 3);
const EXPERT_B = actor('expertB', 'B', 2);

const PAGE: TGetListParams = { pagination: { page: 1, perPage: 10 }, filter: {} };
const TEXT = { bytes: Buffer.from('hello'), declaredType: 'text/plain', fileName: 'a.txt' };

describe('FilesService rules (in-memory repository)', () => {
  it('getList refuses an unknown filter, reference or sort before reading; records carry their url and a numeric size', async () => {
    const { service, calls } = world();
    expect(await codeOf(service.getList(ADMIN_A, { ...PAGE, filter: { nope: 1 } }))).toBe('BAD_REQUEST: Unknown filter: nope');
    expect(await codeOf(service.getList(ADMIN_A, PAGE, { target: 'fileName', id: 'x' }))).toBe('BAD_REQUEST: Unknown reference: fileName');
    expect(await codeOf(service.getList(ADMIN_A, { ...PAGE, sort: { field: 'objectKey', order: 'ASC' } }))).toBe('BAD_REQUEST: Cannot sort by objectKey');
    expect(calls).toEqual([]);
    const list = await service.getList(ADMIN_A, { ...PAGE, filter: { q: 'x', id: ['fileaaaa1'], nope: '' } });
    expect(calls).toEqual(['list created_at']);
    expect(list.data.map((f) => f.id)).toEqual(['fileaaaa1', 'filebbbb1']);
    expect(list.data[0]).toMatchObject({ url: '/api/files/fileaaaa1', size: 5 });
  });

  it('getOne: a file of another company answers NOT_FOUND; one on a system shared with the caller is visible', async () => {
    const { service } = world();
    expect(await codeOf(service.getOne(ADMIN_A, 'filecccc1'))).toBe('NOT_FOUND: File not found');
    await expect(service.getOne(EXPERT_B, 'filebbbb1')).resolves.toMatchObject({ data: { company_cuid: 'B' } });
    expect(await codeOf(service.getOne(EXPERT_B, 'fileaaaa1'))).toBe('NOT_FOUND: File not found');
  });

  it('authorizeUpload: NOT_FOUND out of view, FORBIDDEN without the level or on a read-only share, field errors for what cannot go together', async () => {
    const { service } = world();
    expect(await codeOf(service.authorizeUpload(EXPERT_A, { system_cuid: 'S3' }))).toBe('NOT_FOUND: System not found');
    expect(await codeOf(service.authorizeUpload(EXPERT_B, { system_cuid: 'S1' }))).toBe('FORBIDDEN: This system is shared with your company read-only');
    expect(await codeOf(service.authorizeUpload(EXPERT_A, { system_cuid: 'S1', company_cuid: 'B' }))).toBe(
      'BAD_REQUEST: This system is not shared with that company for changes',
    );
    expect(await codeOf(service.authorizeUpload(EXPERT_A, { company_cuid: 'C' }))).toBe('NOT_FOUND: Company not found');
    expect(await codeOf(service.authorizeUpload(BASIC_A, { company_cuid: 'A' }))).toBe('FORBIDDEN: Uploading files needs level 2 (Expert) in this company');
    expect(await codeOf(service.authorizeUpload(EXPERT_A, {}))).toBe('BAD_REQUEST: Required');
    expect(await codeOf(service.authorizeUpload(ADMIN_A, { rootDomainName: 'example.com' }))).toBe('FORBIDDEN: Brand assets are uploaded by a superuser');
    expect(await codeOf(service.authorizeUpload(ROOT, { domainName: 'nope.example.com' }))).toBe('BAD_REQUEST: Domain not found');
    expect(await codeOf(service.authorizeUpload(ROOT, { rootDomainName: 'other.org', domainName: 'shop.example.com' }))).toBe(
      'BAD_REQUEST: The domain belongs to another root domain',
    );
    expect(await codeOf(service.authorizeUpload(ROOT, { rootDomainName: 'nope.org' }))).toBe('BAD_REQUEST: Root domain not found');
    // A system of another company shared for changes: the file goes to the caller's company.
    await expect(service.authorizeUpload(EXPERT_A, { system_cuid: 'S2' })).resolves.toEqual({
      company_cuid: 'A',
      system_cuid: 'S2',
      rootDomainName: null,
      domainName: null,
    });
    await expect(service.authorizeUpload(ROOT, { rootDomainName: 'example.com', domainName: 'shop.example.com' })).resolves.toEqual({
      company_cuid: null,
      system_cuid: null,
      rootDomainName: null,
      domainName: 'shop.example.com',
    });
  });

  it('upload: checked, stored, then recorded with the caller as uploader; a refused type stores nothing, a failed record removes the object', async () => {
    const w = world();
    const objects = w.storage.objects.size;
    expect(await codeOf(w.service.upload(EXPERT_A, { company_cuid: 'A' }, { ...TEXT, declaredType: 'application/pdf' }))).toMatch(/^UNSUPPORTED_MEDIA_TYPE/);
    expect(w.storage.objects.size).toBe(objects);
    const uploaded = await w.service.upload(EXPERT_A, { company_cuid: 'A' }, TEXT);
    expect(uploaded).toMatchObject({
      company_cuid: 'A',
      uploaded_by_user_cuid: 'expertA',
      contentType: 'text/plain',
      size: 5,
      url: `/api/files/${uploaded.id}`,
    });
    expect(w.storage.objects.has(uploaded.objectKey)).toBe(true);
    w.failInsert();
    await expect(w.service.upload(EXPERT_A, { company_cuid: 'A' }, TEXT)).rejects.toThrow('insert failed');
    expect(w.storage.objects.size).toBe(objects + 1);
  });

  it('delete: level 1 in the owner company, brand assets for admin actions; all or nothing; objects removed and taken off the queue', async () => {
    const w = world();
    expect(await codeOf(w.service.delete(EXPERT_A, 'fileaaaa1'))).toBe('FORBIDDEN: You may not delete this file');
    expect(await codeOf(w.service.deleteMany(ADMIN_A, ['fileaaaa1', 'filecccc1']))).toBe('NOT_FOUND: File not found');
    expect(await codeOf(w.service.deleteMany(ROOT, ['fileaaaa1', 'brandxxxx1', 'nothing1']))).toBe('NOT_FOUND: File not found');
    expect(w.files).toHaveLength(4);
    expect(await w.service.access(ADMIN_A, ['fileaaaa1', 'filebbbb1', 'filecccc1'])).toEqual({
      data: { fileaaaa1: { edit: false, delete: true }, filebbbb1: { edit: false, delete: false } },
    });
    await expect(w.service.deleteMany(ROOT, ['fileaaaa1', 'brandxxxx1'])).resolves.toEqual({ data: ['fileaaaa1', 'brandxxxx1'] });
    expect(w.storage.objects.has('fi/fileaaaa1')).toBe(false);
    expect(w.orphans).toEqual([]);
  });

  it('delete: an object that cannot be removed now stays queued; the sweep removes it later and drops keys the server did not make', async () => {
    const w = world();
    w.storage.failDeletes = true;
    await expect(w.service.delete(ADMIN_A, 'fileaaaa1')).resolves.toMatchObject({ data: { id: 'fileaaaa1' } });
    expect(w.orphans).toEqual(['fi/fileaaaa1']);
    expect(await w.service.sweepOrphans()).toBe(0);
    w.orphans.push('../etc/passwd');
    w.storage.failDeletes = false;
    expect(await w.service.sweepOrphans()).toBe(2);
    expect(w.orphans).toEqual([]);
    expect(w.storage.objects.has('fi/fileaaaa1')).toBe(false);
  });

  it('openForDownload: a brand asset on its own domain is public; otherwise UNAUTHORIZED without a session, NOT_FOUND out of view or without its object', async () => {
    const w = world();
    await expect(w.service.openForDownload(undefined, 'brandxxxx1', 'www.example.com')).resolves.toMatchObject({ public: true });
    expect(await codeOf(w.service.openForDownload(undefined, 'brandxxxx1', 'example.org'))).toBe('UNAUTHORIZED: Sign in to continue');
    expect(await codeOf(w.service.openForDownload(undefined, 'nothing1', 'example.com'))).toBe('UNAUTHORIZED: Sign in to continue');
    expect(await codeOf(w.service.openForDownload(ADMIN_A, 'filecccc1', ''))).toBe('NOT_FOUND: File not found');
    expect(await codeOf(w.service.openForDownload(ADMIN_A, 'NOT-AN-ID', ''))).toBe('NOT_FOUND: File not found');
    await expect(w.service.openForDownload(ADMIN_A, 'fileaaaa1', '')).resolves.toMatchObject({ public: false, file: { id: 'fileaaaa1' } });
    w.storage.objects.clear();
    expect(await codeOf(w.service.openForDownload(ADMIN_A, 'fileaaaa1', ''))).toBe('NOT_FOUND: File not found');
  });
});
