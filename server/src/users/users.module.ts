import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { SqlUsersRepository } from './users.repository';
import { UsersService } from './users.service';

@Module({
  imports: [AuthModule],
  providers: [SqlUsersRepository, UsersService],
  exports: [UsersService],
})
export class UsersModule {}
