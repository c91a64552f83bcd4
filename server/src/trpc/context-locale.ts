import { callerLocale, type Locale } from '../common/locale';
import type { TrpcContext } from './context';

/** The language of a tRPC caller: their stored choice, else their browser's, else English. */
export function contextLocale(ctx: Pick<TrpcContext, 'session' | 'req'> | undefined): Locale {
  return callerLocale(ctx?.session?.ctx.user.meta, ctx?.req?.headers['accept-language']);
}
