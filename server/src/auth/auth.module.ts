import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { AuthController } from './auth.controller';
import { AuthTokenRouter } from './auth-token.router';
import { AuthTokenService } from './auth-token.service';
import { LocalStrategy } from './local.strategy';
import { LoginGuard } from './login.guard';
import { LoginThrottle } from './login-throttle';
import { PasswordChangeBrake } from './password-change-brake';
import { SessionService } from './session.service';

@Module({
  imports: [PassportModule],
  controllers: [AuthController],
  providers: [SessionService, LoginThrottle, PasswordChangeBrake, LocalStrategy, LoginGuard, AuthTokenService, AuthTokenRouter],
  exports: [SessionService, LoginThrottle, PasswordChangeBrake, AuthTokenService, AuthTokenRouter],
})
export class AuthModule {}
