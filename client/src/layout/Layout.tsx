import { type ReactNode, useLayoutEffect } from 'react';
import { Layout, Notification, type NotificationProps } from 'react-admin';
import { useLocation } from 'react-router';
import { useFollowStoredLanguage } from '../session/useLanguage';
import { NamedProgress } from '../theme/NamedProgress';
import { ToastProvider } from '../toasts/ToastProvider';
import { PortalAppBar } from './AppBar';
import { defaultTitle, useBrand } from '../theme/brand';
import { ConnectionBanner } from './ConnectionBanner';
import { PortalMenu } from './Menu';

/**
 * The app shell around every page but the login page: app bar, menu and the toast area.
 * The browser title falls back to the brand's default on each navigation; a page with its own
 * title sets it afterwards (usePageTitle runs after this layout effect).
 */
export function PortalLayout({ children }: { children?: ReactNode }) {
  const brand = useBrand();
  const { pathname } = useLocation();
  useFollowStoredLanguage();
  useLayoutEffect(() => {
    document.title = defaultTitle(brand);
  }, [pathname, brand]);
  return (
    <ToastProvider>
      <ConnectionBanner />
      <NamedProgress>
        <Layout appBar={PortalAppBar} menu={PortalMenu}>
          {children}
        </Layout>
      </NamedProgress>
    </ToastProvider>
  );
}

/** react-admin's own notifications go top-center so they never overlap the toasts (bottom-right). */
export function TopCenterNotification(props: NotificationProps) {
  return <Notification {...props} anchorOrigin={{ vertical: 'top', horizontal: 'center' }} />;
}
