import { z } from 'zod';
import { ZRefCuid } from '../../../shared/common/zod-fields';
import { crudProcedures } from '../crud/crud-router.factory';
import type { CrudService } from '../crud/crud.service';
import { procedure, router } from '../trpc/trpc';
import { systemMetadataResource } from './system-metadata.resources';
import { ZMetadataData, ZTemplateSection } from './system-metadata.schema';
import type { SystemMetadataService } from './system-metadata.service';

/** `systemMetadata.*`: the nine calls plus the form of one system (`forSystem`) and its upsert (`save`). */
export function systemMetadataRouter(crud: CrudService, metadata: SystemMetadataService) {
  return router({
    ...crudProcedures(systemMetadataResource(metadata), crud),
    forSystem: procedure
      .meta({ perm: 'metadata.view' })
      .input(z.object({ system_cuid: ZRefCuid }))
      .output(
        z.object({
          template: z.array(ZTemplateSection),
          data: z.record(z.string(), z.unknown()),
          metadata_cuid: z.string().nullable(),
          canChange: z.boolean(),
        }),
      )
      .query(({ ctx, input }) => metadata.forSystem(ctx.actor, input.system_cuid)),
    save: procedure
      .meta({ perm: 'metadata.change' })
      .input(z.object({ system_cuid: ZRefCuid, data: ZMetadataData }))
      .output(z.object({ metadata_cuid: z.string(), system_cuid: z.string(), data: z.record(z.string(), z.unknown()) }))
      .mutation(({ ctx, input }) => metadata.save(ctx.actor, input.system_cuid, input.data)),
  });
}
