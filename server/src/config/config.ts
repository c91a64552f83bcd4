import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync } from 'class-validator';

/** Setting transforms (class-transformer `@Transform`): an empty value counts as unset. */
export const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));
// `value` is the environment's text, or the default (a boolean) when the variable is unset.
export const toBool = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : typeof value === 'boolean' ? value : ['1', 'true', 'yes', 'on'].includes((value as string).toLowerCase());
export const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

/**
 * Every setting of the portal, read from the environment once at start and validated.
 * Each one is documented in README.md with its default.
 *
 * Each domain declares its own settings in `<domain>/<domain>.config.ts`: a class whose properties
 * are the settings (class-validator decorators, the default as initialiser, the doc comment), which
 * adds its properties to this type (`declare module '../config/config'`), and a section
 * (`defineSettings`) that api/app-config.ts composes. This folder knows no domain: it holds the
 * generic parts (this type, the helpers, `composeConfig`) and the server process's own settings
 * (server.config.ts).
 */
export class AppConfig {
  /** Built by composeConfig only: a bare instance would lack every setting. */
  protected constructor() {}

  /** The environment these settings were read from (module-specific settings read it too). */
  declare readonly env: Readonly<Record<string, string | undefined>>;

  get isProduction(): boolean {
    return this.NODE_ENV === 'production';
  }

  get embedded(): boolean {
    return !this.DATABASE_URL;
  }

  get seedDemo(): boolean {
    return this.SEED_DEMO ?? this.embedded;
  }

  /** The session key; ensureSessionSecret() provides one when the setting is empty. There is no built-in key. */
  get sessionSecret(): string {
    if (!this.SESSION_SECRET) throw new ConfigError('No session key: set SESSION_SECRET (or call ensureSessionSecret)');
    return this.SESSION_SECRET;
  }
}

export class ConfigError extends Error {}

/** One domain's settings, as api/app-config.ts composes them. */
export interface SettingsSection {
  /** The class whose decorated properties are the settings; a new instance holds the defaults. */
  readonly settings: new () => object;
  /** Problems that involve settings of several domains, reported with every other problem. */
  readonly check?: (config: AppConfig) => string[];
  /**
   * A domain that parses its settings itself (telemetry, with its own schema): the names it reads,
   * kept to this section like the class's, and the problems it finds in the environment, reported
   * with every other problem.
   */
  readonly parsedApart?: { readonly names: readonly string[]; readonly problems: (env: NodeJS.ProcessEnv) => string[] };
  /** Defaults derived from other settings (a folder under DATA_DIR), once every setting is valid. */
  readonly finish?: (config: AppConfig) => void;
}

export function defineSettings(settings: new () => object, rules: Omit<SettingsSection, 'settings'> = {}): SettingsSection {
  return { settings, ...rules };
}

/** The names of a section's settings: its properties that carry a validation decorator. */
function settingNames(settings: new () => object): string[] {
  const names = getMetadataStorage()
    .getTargetValidationMetadatas(settings, '', true, false)
    .map((m) => m.propertyName);
  return [...new Set([...Object.keys(new settings()), ...names])];
}

/**
 * Reads and validates the settings of every section from `env` into one AppConfig; throws a
 * ConfigError listing every problem of every section at once.
 */
export function composeConfig(sections: readonly SettingsSection[], env: NodeJS.ProcessEnv): AppConfig {
  const config = Object.create(AppConfig.prototype) as AppConfig;
  const owner = new Map<string, SettingsSection>();
  const problems: string[] = [];
  for (const section of sections) {
    const picked: Record<string, unknown> = {};
    for (const key of [...settingNames(section.settings), ...(section.parsedApart?.names ?? [])]) {
      if (owner.has(key)) throw new Error(`The setting ${key} is declared by two sections`);
      owner.set(key, section);
      if (env[key] !== undefined) picked[key] = env[key];
    }
    const values = plainToInstance(section.settings, picked, { exposeDefaultValues: true });
    // A class without a decorated setting (a section parsed apart) has nothing for class-validator.
    const decorated = getMetadataStorage().getTargetValidationMetadatas(section.settings, '', true, false).length > 0;
    if (decorated) problems.push(...validateSync(values, { skipMissingProperties: false }).flatMap((e) => Object.values(e.constraints ?? {})));
    Object.assign(config, values);
    problems.push(...(section.parsedApart?.problems(env) ?? []));
  }
  for (const section of sections) problems.push(...(section.check?.(config) ?? []));
  if (problems.length) throw new ConfigError(`Invalid settings:\n - ${problems.join('\n - ')}`);
  for (const section of sections) section.finish?.(config);
  Object.defineProperty(config, 'env', { value: { ...env }, enumerable: false });
  return config;
}
