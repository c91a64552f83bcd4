import { useRecordContext, useTranslate } from 'react-admin';

/** How a channel is named in titles and references: its kind in the user's language ("Email", "E-mail"), never the raw code. */
export function ChannelLabel() {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  return <>{translate(`portal.channels.sources.${String(record.source)}`, { _: String(record.source ?? '') })}</>;
}

/** A channel page's title: "Channel Email" / "Canal E-mail". */
export function ChannelTitle() {
  const translate = useTranslate();
  return (
    <>
      {translate('resources.notificationChannel.name', { smart_count: 1 })} <ChannelLabel />
    </>
  );
}
