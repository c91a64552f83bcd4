import { Module } from '@nestjs/common';
import { AuthTokenController } from './auth-token.controller';
import { SqlAuthTokenRepository } from './auth-token.repository';
import { AuthTokenService } from './auth-token.service';

/** A company's API tokens: machines (controllers, scripts) speak for the company with them. */
@Module({
  controllers: [AuthTokenController],
  providers: [SqlAuthTokenRepository, AuthTokenService],
  exports: [AuthTokenService],
})
export class TokensModule {}
