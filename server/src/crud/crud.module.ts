import { Global, Module } from '@nestjs/common';
import { CrudService } from './crud.service';
import { ResourceRouters } from './resource-routers';

@Global()
@Module({ providers: [CrudService, ResourceRouters], exports: [CrudService, ResourceRouters] })
export class CrudModule {}
