import 'reflect-metadata';
import { Logger, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import cookieParser from 'cookie-parser';
import express from 'express';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AppModule } from './app.module';
import { foreignOriginGuard, jsonErrorHandler, securityHeaders } from './common/http-guards';
import type { AppConfig } from './config/config';
import type { Database } from './database/data-source';

const LEVELS: LogLevel[] = ['error', 'warn', 'log', 'debug', 'verbose'];

/** Where the browser app is served from: the Vite build when present, else the placeholder. */
export function clientRoot(): string {
  const built = resolve(__dirname, '..', '..', 'client');
  const candidates = [resolve(process.cwd(), 'dist', 'client'), built, resolve(process.cwd(), 'client', 'public')];
  return candidates.find((dir) => existsSync(join(dir, 'index.html'))) ?? candidates[candidates.length - 1];
}

/** Builds the whole application on an opened database (used by main.ts, tests and the bench). */
export async function createApp(config: AppConfig, db: Database, ownsDatabase = true): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register(config, db, ownsDatabase), {
    bodyParser: false,
    logger: LEVELS.slice(0, LEVELS.indexOf(config.LOG_LEVEL) + 1),
  });
  app.set('trust proxy', config.TRUST_PROXY);
  app.disable('x-powered-by');
  app.use(securityHeaders);
  app.use(cookieParser());
  app.use('/api', foreignOriginGuard(config.ALLOWED_ORIGINS.split(',')));
  app.use('/api/auth', express.json({ limit: '16kb' }), jsonErrorHandler);
  app.enableShutdownHooks();
  const root = clientRoot();
  app.useStaticAssets(root, { index: false, maxAge: '1h' });
  // Browser routes fall back to the app's index.html; unknown /api paths stay 404 JSON.
  app.getHttpAdapter().getInstance().get(/^\/(?!api(\/|$)).*/, (_req: express.Request, res: express.Response) => {
    res.sendFile(join(root, 'index.html'));
  });
  await app.init();
  Logger.log(`Serving the browser app from ${root}`, 'App');
  return app;
}
