import { dropEmbeddedTemplate, dropTemplate } from './factories/database';

export default async function globalTeardown(): Promise<void> {
  if (process.env.TEST_DATABASE_URL) await dropTemplate(process.env.TEST_DATABASE_URL);
  else dropEmbeddedTemplate();
}
