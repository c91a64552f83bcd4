import { z } from 'zod';

/**
 * The commands a controller type declares besides the built-in ones (controller_type.commands),
 * as the catalogue stores and checks them; the command service and the send form read them too
 * (controllers/command-wire re-exports them).
 */

/** Commands every controller takes. Anything else must be declared by the controller type. */
export const BUILT_IN_COMMANDS = ['apply_config', 'set_parameter', 'restart'] as const;

/** A command name: lower-case words joined by '_' (it names a command in the UI, the changelog and on the wire). */
export const COMMAND_NAME_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

/** One argument of a declared command (the send form draws a field per argument). */
export const ZDeclaredArg = z
  .object({
    name: z.string().regex(COMMAND_NAME_PATTERN, 'Lower-case letters, digits and "_"'),
    label: z.string().trim().max(200).optional(),
    type: z.enum(['number', 'string', 'boolean']),
    required: z.boolean().default(false),
    min: z.number().finite().optional(),
    max: z.number().finite().optional(),
    /** For strings: the allowed values (a select in the form). */
    choices: z.array(z.string().max(200)).max(50).optional(),
    /** A secret (a password, a PSK, a token): masked wherever the command is read by someone who may not configure the controller. */
    secret: z.boolean().optional(),
  })
  .strict();

/** A command a controller type declares (controller_type.commands). */
export const ZDeclaredCommand = z
  .object({
    name: z
      .string()
      .regex(COMMAND_NAME_PATTERN, 'Lower-case letters, digits and "_"')
      .refine((n) => !(BUILT_IN_COMMANDS as readonly string[]).includes(n), 'This name is a built-in command'),
    label: z.string().trim().max(200).optional(),
    description: z.string().trim().max(2000).optional(),
    /** Needs a recent password (genset start/stop, anything that moves power). */
    dangerous: z.boolean().default(false),
    args: z.array(ZDeclaredArg).max(20).default([]),
  })
  .strict();
export type TDeclaredCommand = z.infer<typeof ZDeclaredCommand>;

export const ZDeclaredCommands = z
  .array(ZDeclaredCommand)
  .max(50)
  .refine((list) => new Set(list.map((c) => c.name)).size === list.length, 'Each command name once');
