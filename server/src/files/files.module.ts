import fastifyMultipart from '@fastify/multipart';
import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { AuthModule } from '../auth/auth.module';
import { AppConfig } from '../config/config';
import { DiskFileStorage } from './disk-file-storage';
import { FileStorage } from './file-storage';
import { FilesController } from './files.controller';
import { SqlFilesRepository } from './files.repository';
import { FilesService } from './files.service';
import { S3FileStorage } from './s3-file-storage';

/** The storage the settings name: an S3-compatible bucket when FILES_S3_BUCKET is set, else FILES_DIR on disk. */
export function storageFromConfig(config: AppConfig): FileStorage {
  if (config.FILES_S3_BUCKET) {
    return new S3FileStorage({
      bucket: config.FILES_S3_BUCKET,
      region: config.FILES_S3_REGION,
      endpoint: config.FILES_S3_ENDPOINT || undefined,
      accessKeyId: config.FILES_S3_ACCESS_KEY_ID || undefined,
      secretAccessKey: config.FILES_S3_SECRET_ACCESS_KEY || undefined,
    });
  }
  return new DiskFileStorage(config.FILES_DIR);
}

/**
 * Hosted files: upload and download over HTTP (`/api/files`), records over tRPC (`hostedFile.*`).
 * Multipart parsing is added to Fastify for `multipart/form-data` only; JSON bodies (tRPC) are untouched.
 */
@Module({
  imports: [AuthModule],
  controllers: [FilesController],
  providers: [{ provide: FileStorage, inject: [AppConfig], useFactory: storageFromConfig }, SqlFilesRepository, FilesService],
  exports: [FilesService, FileStorage],
})
export class FilesModule implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  async onModuleInit(): Promise<void> {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    if (!fastify.hasContentTypeParser('multipart/form-data')) {
      // Limits are set per upload (FilesController); these are the defaults for anything else.
      await fastify.register(fastifyMultipart, { limits: { fileSize: 1, files: 0, fields: 0, parts: 0 } });
    }
  }
}
