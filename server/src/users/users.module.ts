import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { RoleRouter } from './role.router';
import { UserRouter } from './user.router';
import { SqlUsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  imports: [AuthModule],
  providers: [SqlUsersRepository, UsersService, RoleRouter, UserRouter],
  exports: [UsersService, RoleRouter, UserRouter],
})
export class UsersModule {}
