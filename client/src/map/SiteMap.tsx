import type { SiteMapProps } from './types';

/** Placeholder until the map lands (Leaflet, offline country borders, clusters). */
export default function SiteMap({ pins, height = 320 }: SiteMapProps) {
  return <div data-testid="site-map" data-pins={pins.length} style={{ height }} />;
}
