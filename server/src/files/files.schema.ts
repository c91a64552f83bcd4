import { z } from 'zod';

/** A hosted file as the back office sees it (react-admin record; `url` serves the bytes). */
export const ZHostedFile = z.object({
  id: z.string(),
  objectKey: z.string(),
  contentType: z.string(),
  rootDomainName: z.string().nullable(),
  domainName: z.string().nullable(),
  company_cuid: z.string().nullable(),
  system_cuid: z.string().nullable(),
  size: z.number().int(),
  fileName: z.string().nullable(),
  uploaded_by_user_cuid: z.string().nullable(),
  created_at: z.date(),
  url: z.string(),
});
export type THostedFile = z.infer<typeof ZHostedFile>;

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const ZKey = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .trim()
    .min(1)
    .max(32)
    .regex(/^[A-Za-z0-9_-]+$/, 'Not a valid identifier')
    .optional(),
);
const ZHost = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .trim()
    .toLowerCase()
    .max(253)
    .regex(/^[a-z0-9.-]+$|^\d{1,3}(\.\d{1,3}){3}$/, 'Not a valid domain name')
    .optional(),
);

/** The text fields of an upload (multipart/form-data), beside the `file` part. */
export const ZUploadFields = z
  .object({
    company_cuid: ZKey,
    system_cuid: ZKey,
    rootDomainName: ZHost,
    domainName: ZHost,
  })
  .strict();
export type TUploadFields = z.infer<typeof ZUploadFields>;

export const HOSTED_FILE_FILTERS = ['company_cuid', 'system_cuid', 'rootDomainName', 'domainName', 'contentType', 'uploaded_by_user_cuid'] as const;
export const HOSTED_FILE_SORTS = ['created_at', 'fileName', 'size', 'contentType', 'company_cuid', 'system_cuid'] as const;
