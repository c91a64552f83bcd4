import fastifyCookie from '@fastify/cookie';
import { type DynamicModule, Injectable, Logger, Module, type OnModuleInit, type Type } from '@nestjs/common';
import { HttpAdapterHost, NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { fastifyTRPCPlugin } from '@trpc/server/adapters/fastify';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AuthModule } from '../../auth/auth.module';
import { clearSessionCookie, readSessionCookie } from '../../auth/cookies';
import { SessionService } from '../../auth/session.service';
import { foreignOriginHook, securityHeadersHook } from '../../common/http-guards';
import type { AppConfig } from '../../config/config';
import { ConfigModule } from '../../config/config.module';
import type { Database } from '../../database/data-source';
import { DatabaseModule } from '../../database/database.module';
import { HealthController } from '../../health/health.controller';
import { SystemsModule } from '../../systems/systems.module';
import type { TrpcContext } from '../../trpc/context';
import { router } from '../../trpc/trpc';
import { TelemetryModule } from '../telemetry.module';
import { TelemetryRouter } from '../telemetry.router';

/**
 * The portal's telemetry part on its own, for tests and the kill -9 child process, until
 * TelemetryModule is wired into AppModule / TrpcModule (then `createApp` serves the same):
 * sessions (login at /api/auth/login), /api/health, HTTP and MQTT ingest, and tRPC at /api/trpc
 * with the `telemetry.*` procedures.
 */
@Injectable()
class TelemetryTrpcMount implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly sessions: SessionService,
    private readonly telemetry: TelemetryRouter,
  ) {}

  private async createContext({ req, res }: { req: FastifyRequest; res: FastifyReply }): Promise<TrpcContext> {
    const cookie = readSessionCookie(req);
    if (!cookie) return { req, res };
    const check = await this.sessions.check(cookie);
    if (!check.ok) {
      clearSessionCookie(req, res);
      return { req, res, sessionFailure: check.reason };
    }
    return { req, res, actor: check.actor, session: check.payload };
  }

  async onModuleInit(): Promise<void> {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    await fastify.register(fastifyTRPCPlugin, {
      prefix: '/api/trpc',
      trpcOptions: {
        router: router({ telemetry: this.telemetry.router }),
        createContext: (opts: { req: FastifyRequest; res: FastifyReply }) => this.createContext(opts),
        onError: ({ error, path }: { error: { code: string; cause?: Error; stack?: string }; path?: string }) => {
          if (error.code === 'INTERNAL_SERVER_ERROR') Logger.error(`${path ?? '?'}: ${error.cause?.stack ?? error.stack}`, 'tRPC');
        },
      },
    });
  }
}

@Module({ imports: [AuthModule, TelemetryModule], providers: [TelemetryTrpcMount] })
class TelemetryTrpcModule {}

@Module({})
export class TelemetryAppModule {
  static register(config: AppConfig, db: Database, ownsDatabase: boolean): DynamicModule {
    return {
      module: TelemetryAppModule,
      controllers: [HealthController],
      imports: [
        ConfigModule.forConfig(config),
        DatabaseModule.forDatabase(db, ownsDatabase),
        AuthModule,
        SystemsModule,
        TelemetryModule,
        TelemetryTrpcModule,
      ],
    };
  }
}

/** Fastify plumbing as in server/src/app.ts (cookies, security headers, foreign-origin guard). */
export async function prepareApp(app: NestFastifyApplication, config: AppConfig): Promise<NestFastifyApplication> {
  await app.register(fastifyCookie);
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onRequest', securityHeadersHook);
  fastify.addHook('onRequest', foreignOriginHook(config.ALLOWED_ORIGINS.split(',')));
  app.enableShutdownHooks();
  await app.init();
  return app;
}

export const telemetryFastifyAdapter = () => new FastifyAdapter({ trustProxy: false, bodyLimit: 1024 * 1024 });

/** The standalone telemetry app (no provider overrides). */
export async function createTelemetryApp(config: AppConfig, db: Database, ownsDatabase = true): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(TelemetryAppModule.register(config, db, ownsDatabase) as unknown as Type, telemetryFastifyAdapter(), {
    logger: ['error', 'warn', 'log'].slice(0, ['error', 'warn', 'log'].indexOf(config.LOG_LEVEL === 'error' ? 'error' : config.LOG_LEVEL === 'warn' ? 'warn' : 'log') + 1) as ('error' | 'warn' | 'log')[],
  });
  return prepareApp(app, config);
}
