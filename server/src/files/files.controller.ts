import '@fastify/multipart';
import { Controller, Get, HttpCode, HttpException, Logger, Param, Post, Req, Res } from '@nestjs/common';
import { TRPCError } from '@trpc/server';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clearSessionCookie, readSessionCookie } from '../auth/cookies';
import { type Actor, mayStartUpload } from '../../../shared/access/policy';
import { SessionService } from '../auth/session.service';
import { hostOf } from '../branding/branding.service';
import { Budgets } from '../budgets/budgets.service';
import { AppConfig } from '../config/config';
import { fieldErrorsOf } from '../common/field-error';
import { contentDisposition, contentTypeHeader, INLINE_TYPES } from './content-type';
import { ZUploadFields, type THostedFile } from './files.schema';
import { FilesService, type UploadedBytes } from './files.service';

/** Room for the multipart envelope and the text fields around the file itself. */
const ENVELOPE_BYTES = 64 * 1024;

/** SVG can carry script: downloaded, and sandboxed should a browser open it anyway. */
const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox";

const fail = (status: number, code: string, message: string, fieldErrors?: { path: string; message: string }[]) =>
  new HttpException(fieldErrors ? { code, message, fieldErrors } : { code, message }, status);

const mib = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MiB`;

/**
 * Hosted files over plain HTTP: upload as multipart/form-data (a `file` part and the owner
 * fields) and download with the right headers. Records are listed and deleted through tRPC
 * (`hostedFile.*`).
 */
@Controller('api/files')
export class FilesController {
  private readonly logger = new Logger(FilesController.name);
  /** Uploads running on this instance per user (each is held in memory, at most FILES_MAX_BYTES). */
  private readonly running = new Map<string, number>();

  constructor(
    private readonly files: FilesService,
    private readonly sessions: SessionService,
    private readonly config: AppConfig,
    private readonly budgets: Budgets,
  ) {}

  private async actorOf(req: FastifyRequest, res: FastifyReply): Promise<Actor | undefined> {
    const cookie = readSessionCookie(req);
    if (!cookie) return undefined;
    const check = await this.sessions.check(cookie);
    if (!check.ok) {
      clearSessionCookie(req, res);
      return undefined;
    }
    return check.actor;
  }

  /** A service error as the HTTP answer the client can act on (never a 500 for user input). */
  private toHttp(e: unknown): unknown {
    if (e instanceof TRPCError) {
      const fieldErrors = fieldErrorsOf(e);
      if (e.code === 'INTERNAL_SERVER_ERROR') return e;
      return fail(getHTTPStatusCodeFromError(e), e.code, e.message, fieldErrors);
    }
    return e;
  }

  @Post()
  @HttpCode(201)
  async upload(@Req() req: FastifyRequest, @Res({ passthrough: true }) res: FastifyReply): Promise<{ data: THostedFile }> {
    const actor = await this.actorOf(req, res);
    if (!actor) throw fail(401, 'UNAUTHORIZED', 'Sign in to continue');
    if (!mayStartUpload(actor)) {
      throw fail(403, 'FORBIDDEN', 'Uploading files needs level 2 (Expert)');
    }
    if (!req.isMultipart()) throw fail(415, 'UNSUPPORTED_MEDIA_TYPE', 'Send the file as multipart/form-data');
    // At most FILES_UPLOADS_RUNNING_PER_USER uploads of one user at once, taken before the body is read.
    const user = actor.user_cuid;
    const limit = this.config.FILES_UPLOADS_RUNNING_PER_USER;
    const held = this.running.get(user) ?? 0;
    if (held >= limit) {
      this.budgets.countRefusal('files.running');
      throw fail(429, 'TOO_MANY_REQUESTS', `You already have ${limit} uploads running; wait for one to finish, then try again`);
    }
    this.running.set(user, held + 1);
    try {
      return await this.receive(req, actor);
    } finally {
      const left = (this.running.get(user) ?? 1) - 1;
      if (left > 0) this.running.set(user, left);
      else this.running.delete(user);
    }
  }

  /** Reads the multipart body (one file, at most FILES_MAX_BYTES, and the owner fields) and hands it to the service. */
  private async receive(req: FastifyRequest, actor: Actor): Promise<{ data: THostedFile }> {
    const max = this.config.FILES_MAX_BYTES;
    const tooLarge = () => fail(413, 'PAYLOAD_TOO_LARGE', `The file is larger than the limit of ${mib(max)}`);
    if (Number(req.headers['content-length'] ?? 0) > max + ENVELOPE_BYTES) throw tooLarge();

    const fields = new Map<string, string>();
    let file: UploadedBytes | undefined;
    try {
      const parts = req.parts({ limits: { fileSize: max, files: 1, fields: 8, fieldSize: 1024, parts: 9, headerPairs: 100 } });
      for await (const part of parts) {
        if (part.type === 'file') {
          if (part.fieldname !== 'file') {
            part.file.resume();
            throw fail(400, 'BAD_REQUEST', 'The file goes in the field "file"', [{ path: part.fieldname, message: 'Unknown file field' }]);
          }
          file = { bytes: await part.toBuffer(), declaredType: part.mimetype, fileName: part.filename };
        } else {
          if (fields.has(part.fieldname)) {
            throw fail(400, 'BAD_REQUEST', `The field ${part.fieldname} is sent twice`, [{ path: part.fieldname, message: 'Sent twice' }]);
          }
          fields.set(part.fieldname, String(part.value));
        }
      }
    } catch (e) {
      if (e instanceof HttpException) throw e;
      const code = (e as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
      if (code === 'FST_FILES_LIMIT') throw fail(400, 'BAD_REQUEST', 'Send one file per upload', [{ path: 'file', message: 'One file only' }]);
      if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw fail(400, 'BAD_REQUEST', 'Too many form fields');
      throw fail(400, 'BAD_REQUEST', 'The multipart body could not be read');
    }
    if (!file) throw fail(400, 'BAD_REQUEST', 'A file is required', [{ path: 'file', message: 'Required' }]);
    const parsed = ZUploadFields.safeParse(Object.fromEntries(fields));
    if (!parsed.success) {
      const fieldErrors = parsed.error.issues.flatMap((i) =>
        i.code === 'unrecognized_keys'
          ? i.keys.map((k) => ({ path: k, message: 'Unknown field' }))
          : [{ path: i.path.map(String).join('.'), message: i.message }],
      );
      throw fail(400, 'BAD_REQUEST', 'Some fields are not valid', fieldErrors);
    }
    try {
      return { data: await this.files.upload(actor, parsed.data, file) };
    } catch (e) {
      throw this.toHttp(e);
    }
  }

  @Get(':id')
  async download(@Param('id') id: string, @Req() req: FastifyRequest, @Res() res: FastifyReply): Promise<void> {
    const actor = await this.actorOf(req, res);
    let found;
    try {
      found = await this.files.openForDownload(actor, id, hostOf(req.headers.host));
    } catch (e) {
      throw this.toHttp(e);
    }
    const { file, object } = found;
    const type = file.contentType;
    const name = file.fileName ?? `${file.id}`;
    const etag = `"${file.id}"`;
    res.header('content-type', contentTypeHeader(type));
    res.header('x-content-type-options', 'nosniff');
    res.header('content-disposition', contentDisposition(INLINE_TYPES.has(type) ? 'inline' : 'attachment', name));
    // A file never changes under its id: public brand assets are cached, private files are revalidated (access may change).
    res.header('cache-control', found.public ? 'public, max-age=3600' : 'private, no-cache');
    res.header('etag', etag);
    if (type === 'image/svg+xml') res.header('content-security-policy', SVG_POLICY);
    if (req.headers['if-none-match'] === etag) {
      object.body.destroy();
      await res.code(304).send();
      return;
    }
    res.header('content-length', String(object.size));
    object.body.on('error', (e) => this.logger.warn(`Reading file ${file.id} failed: ${e.message}`));
    await res.send(object.body);
  }
}
