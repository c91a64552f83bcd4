import 'leaflet/dist/leaflet.css';
import { Box } from '@mui/material';
import L from 'leaflet';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { useTranslate } from 'react-admin';
import { useNavigate } from 'react-router';
import Supercluster, { type ClusterProperties } from 'supercluster';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import countries110m from 'world-atlas/countries-110m.json';
import { useMapSettings } from './api';
import { siteSystemsPath, STATE_COLOURS, worseState } from './pins';
import type { MapPin, SiteMapProps } from './types';

// Country borders (Natural Earth 1:110m through world-atlas, public domain), bundled in this chunk:
// the map draws without any network; a tile layer is added only when MAP_TILE_URL is set.
const topology = countries110m as unknown as Topology<{ countries: GeometryCollection }>;
const COUNTRIES = feature(topology, topology.objects.countries);

interface PinProps {
  pin: MapPin;
}

/** Sites as pins coloured by their worst system state, clustered when zoomed out (see ./index for the lazy wrapper). */
export default function SiteMap({ pins, height = 320, onPinClick }: SiteMapProps) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const box = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const tilesRef = useRef<L.TileLayer | null>(null);
  const settings = useMapSettings();
  // Latest handlers and labels, read by the map's listeners without rebuilding the map.
  const choose = useRef<(pin: MapPin) => void>(() => undefined);
  const label = useRef<(pin: MapPin) => string>(() => '');
  const clusterLabel = useRef<(count: number, state: MapPin['state']) => string>(() => '');
  useLayoutEffect(() => {
    choose.current = onPinClick ?? ((pin) => navigate(siteSystemsPath(pin.site_cuid)));
    label.current = (pin) => translate('portal.map.pin_label', { name: pin.name, state: translate(`portal.map.state.${pin.state}`), smart_count: pin.systems });
    clusterLabel.current = (count, state) => translate('portal.map.cluster_label', { smart_count: count, state: translate(`portal.map.state.${state}`) });
  });

  // The map and its borders, once.
  useEffect(() => {
    if (!box.current) return;
    const map = L.map(box.current, { worldCopyJump: true, minZoom: 1, maxZoom: 18, zoomControl: true, attributionControl: true });
    map.attributionControl.setPrefix(false);
    L.geoJSON(COUNTRIES, {
      style: { color: '#90a4ae', weight: 1, fillColor: '#eceff1', fillOpacity: 1 },
      interactive: false,
    }).addTo(map);
    map.setView([10, 20], 2);
    mapRef.current = map;
    // A container that changes size after mount (cards, grid) must tell Leaflet.
    const observer = new ResizeObserver(() => map.invalidateSize());
    observer.observe(box.current);
    return () => {
      observer.disconnect();
      map.remove();
      mapRef.current = null;
    };
  }, []);

  // The optional tile layer (MAP_TILE_URL), with its attribution.
  useEffect(() => {
    const map = mapRef.current;
    const url = settings.data?.tile_url ?? '';
    if (!map || !url) return;
    const tiles = L.tileLayer(url, { attribution: settings.data?.attribution || undefined, maxZoom: 19 }).addTo(map);
    tiles.bringToBack();
    tilesRef.current = tiles;
    return () => {
      tiles.remove();
      tilesRef.current = null;
    };
  }, [settings.data]);

  // Pins and clusters, redrawn when the pins change or the view moves.
  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    const index = new Supercluster<PinProps, { state: MapPin['state'] }>({
      radius: 50,
      maxZoom: 16,
      map: (p) => ({ state: p.pin.state }),
      reduce: (acc, p) => {
        acc.state = worseState(acc.state, p.state);
      },
    });
    index.load(pins.map((pin) => ({ type: 'Feature', properties: { pin }, geometry: { type: 'Point', coordinates: [pin.long, pin.lat] } })));
    const layer = L.layerGroup().addTo(map);

    const draw = () => {
      layer.clearLayers();
      const b = map.getBounds();
      const zoom = Math.round(map.getZoom());
      const west = Math.max(-180, b.getWest());
      const east = Math.min(180, b.getEast());
      const items = index.getClusters([west, Math.max(-85, b.getSouth()), east, Math.min(85, b.getNorth())], zoom);
      for (const item of items) {
        const [lng, lat] = item.geometry.coordinates;
        const props = item.properties as Partial<ClusterProperties> & Partial<PinProps> & { state?: MapPin['state'] };
        if (props.cluster) {
          const state = props.state ?? 'UNKNOWN';
          const count = props.point_count ?? 0;
          const size = count < 10 ? 30 : count < 100 ? 36 : 44;
          const marker = L.marker([lat, lng], {
            keyboard: true,
            icon: L.divIcon({
              className: 'site-map-cluster',
              html: `<span style="display:flex;align-items:center;justify-content:center;width:${size}px;height:${size}px;border-radius:50%;background:${STATE_COLOURS[state]};color:#fff;font:600 13px sans-serif;border:2px solid #fff;box-shadow:0 0 0 1px rgba(0,0,0,.3)">${count}</span>`,
              iconSize: [size, size],
            }),
          });
          const expand = () => map.setView([lat, lng], Math.min(index.getClusterExpansionZoom(Number(item.id)), 18));
          marker.on('click', expand);
          marker.on('keypress', (e) => {
            const key = e.originalEvent.key;
            if (key === 'Enter' || key === ' ') expand();
          });
          marker.addTo(layer);
          const el = marker.getElement();
          el?.setAttribute('aria-label', clusterLabel.current(count, state));
          el?.setAttribute('data-testid', 'map-cluster');
          el?.setAttribute('data-count', String(count));
          el?.setAttribute('data-state', state);
        } else if (props.pin) {
          const pin = props.pin;
          const marker = L.marker([lat, lng], {
            keyboard: true,
            title: pin.name,
            icon: L.divIcon({
              className: 'site-map-pin',
              html: `<span style="display:block;width:18px;height:18px;border-radius:50%;background:${STATE_COLOURS[pin.state]};border:2px solid #fff;box-shadow:0 0 0 1px rgba(0,0,0,.4)"></span>`,
              iconSize: [22, 22],
            }),
          });
          marker.on('click', () => choose.current(pin));
          marker.on('keypress', (e) => {
            const key = e.originalEvent.key;
            if (key === 'Enter' || key === ' ') choose.current(pin);
          });
          marker.addTo(layer);
          const el = marker.getElement();
          el?.setAttribute('aria-label', label.current(pin));
          el?.setAttribute('data-testid', 'map-pin');
          el?.setAttribute('data-site', pin.site_cuid);
          el?.setAttribute('data-state', pin.state);
        }
      }
    };

    // Fit the view to the pins (one pin: a regional view).
    if (pins.length === 1) map.setView([pins[0].lat, pins[0].long], 8);
    else if (pins.length > 1) map.fitBounds(L.latLngBounds(pins.map((p) => [p.lat, p.long] as [number, number])), { padding: [24, 24], maxZoom: 10 });
    draw();
    map.on('moveend', draw);
    return () => {
      map.off('moveend', draw);
      layer.remove();
    };
  }, [pins]);

  return (
    <Box
      ref={box}
      data-testid="site-map"
      data-pins={pins.length}
      data-tiles={settings.data?.tile_url ? 'true' : 'false'}
      role="region"
      aria-label={translate('portal.map.label', { smart_count: pins.length })}
      sx={{
        height,
        width: '100%',
        borderRadius: 1,
        overflow: 'hidden',
        bgcolor: '#cfe3f1',
        '& .leaflet-container': { bgcolor: '#cfe3f1' },
        '& .site-map-pin, & .site-map-cluster': { background: 'none', border: 'none' },
      }}
    />
  );
}
