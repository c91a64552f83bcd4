import { Module } from '@nestjs/common';
import { RoleRouter } from './role.router';
import { UserRouter } from './user.router';
import { UsersService } from './users.service';

@Module({
  providers: [UsersService, RoleRouter, UserRouter],
  exports: [UsersService, RoleRouter, UserRouter],
})
export class UsersModule {}
