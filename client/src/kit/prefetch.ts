import { useCallback, useLayoutEffect, useRef } from 'react';

/** §9 prefetch: a link within this distance of the viewport prefetches its screen. */
export const PREFETCH_ROOT_MARGIN = '200px';

type NetworkInformation = { saveData?: boolean; effectiveType?: string };

/** Not when the user asked to save data, nor on a 2G link (prefetching would compete with what they look at). */
export function prefetchAllowed(
  nav: { connection?: NetworkInformation } | undefined = typeof navigator === 'undefined' ? undefined : (navigator as never),
): boolean {
  const connection = nav?.connection;
  if (!connection) return true;
  if (connection.saveData) return false;
  return !/(^|-)2g$/.test(connection.effectiveType ?? '');
}

const callbacks = new WeakMap<Element, () => void>();
let observer: IntersectionObserver | null = null;

/** One observer for every link of the page. */
function sharedObserver(): IntersectionObserver | null {
  if (observer || typeof IntersectionObserver === 'undefined') return observer;
  observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        const fire = callbacks.get(entry.target);
        observer?.unobserve(entry.target);
        callbacks.delete(entry.target);
        fire?.();
      }
    },
    { rootMargin: PREFETCH_ROOT_MARGIN },
  );
  return observer;
}

/**
 * A ref for a link to a record's screen: when the link comes within PREFETCH_ROOT_MARGIN of the
 * viewport, `prefetch` runs once for this link (it loads the screen's code and first data into
 * the caches, client/src/systems/prefetch.ts for systems). Nothing happens with saveData or 2G.
 */
export function usePrefetchOnView<T extends Element>(prefetch: () => void): (element: T | null) => void {
  const latest = useRef(prefetch);
  useLayoutEffect(() => {
    latest.current = prefetch;
  });
  const observed = useRef<T | null>(null);
  const done = useRef(false);
  return useCallback((element: T | null) => {
    const io = sharedObserver();
    if (observed.current && observed.current !== element) {
      io?.unobserve(observed.current);
      callbacks.delete(observed.current);
    }
    observed.current = element;
    if (!element || !io || done.current || !prefetchAllowed()) return;
    callbacks.set(element, () => {
      done.current = true;
      latest.current();
    });
    io.observe(element);
  }, []);
}
