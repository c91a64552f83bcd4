import { createEmbeddedTemplate, createTemplate } from './factories/database';

export default async function globalSetup(): Promise<void> {
  if (process.env.TEST_DATABASE_URL) await createTemplate(process.env.TEST_DATABASE_URL);
  else await createEmbeddedTemplate();
}
