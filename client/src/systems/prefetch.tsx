import type { ReactNode } from 'react';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { usePrefetchOnView } from '../kit/prefetch';
import { systemLatestQuery } from './api';

/** A prefetched answer counts as fresh this long: the page shows it at once and refetches after. */
export const PREFETCH_FRESH_MS = 30_000;

let loadSystemPageCode: () => Promise<unknown> = () => Promise.resolve();

/**
 * The system page's lazy chunk, named by the page's own route (system-page/index.tsx, which the app
 * loads at start): the page sits above this folder, so this folder does not import it.
 */
export function setSystemPageLoader(load: () => Promise<unknown>): void {
  loadSystemPageCode = load;
}

/** The system page's code (its lazy chunk) and first data, into the caches. */
export function prefetchSystemPage(queryClient: QueryClient, system_cuid: string): void {
  void loadSystemPageCode().catch(() => undefined);
  void queryClient.prefetchQuery({ ...systemLatestQuery(system_cuid), staleTime: PREFETCH_FRESH_MS });
}

/** The systems list's code (a site's systems link). */
export function prefetchSystemList(): void {
  void import('./SystemList').catch(() => undefined);
}

/** A ref for a link to /systems/:id (any tab): prefetches the page when the link nears the viewport. */
export function useSystemPrefetch<T extends Element>(system_cuid: string | undefined): (element: T | null) => void {
  const queryClient = useQueryClient();
  return usePrefetchOnView<T>(() => {
    if (system_cuid) prefetchSystemPage(queryClient, system_cuid);
  });
}

/** A ref for a link to a filtered systems list. */
export function useSystemListPrefetch<T extends Element>(): (element: T | null) => void {
  return usePrefetchOnView<T>(prefetchSystemList);
}

/** For links rendered in a loop: `<SystemPrefetch id={cuid}>{(ref) => <Link ref={ref} … />}</SystemPrefetch>`. */
export function SystemPrefetch({ id, children }: { id: string; children: (ref: (element: HTMLElement | null) => void) => ReactNode }) {
  const ref = useSystemPrefetch<HTMLElement>(id);
  return <>{children(ref)}</>;
}
