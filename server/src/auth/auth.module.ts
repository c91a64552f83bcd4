import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { AuthController } from './auth.controller';
import { LocalStrategy } from './local.strategy';
import { LoginGuard } from './login.guard';
import { LoginAttemptsRepository } from './login-attempts.repository';
import { LoginThrottle } from './login-throttle';
import { PasswordChangeBrake } from './password-change-brake';
import { SessionService } from './session.service';
import { SessionsRepository } from './sessions.repository';

@Module({
  imports: [PassportModule],
  controllers: [AuthController],
  providers: [SessionsRepository, LoginAttemptsRepository, SessionService, LoginThrottle, PasswordChangeBrake, LocalStrategy, LoginGuard],
  exports: [SessionService, LoginThrottle, PasswordChangeBrake],
})
export class AuthModule {}
