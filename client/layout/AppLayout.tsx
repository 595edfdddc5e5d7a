import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { Header } from './Header';
import { Sidebar } from './Sidebar';

/** The CSS variable holding the header's height: the sidebar and the toasts sit below it (portal.css). */
const HEADER_HEIGHT_VAR = '--portal-header-height';

/**
 * The signed-in frame: header, the profile's menu and the page. The header stays at the top and
 * the menu beside the page, with its own scroll and the version always in view; the page scrolls.
 */
export function AppLayout({ children, pageAllowed }: { children: ReactNode; pageAllowed: boolean }) {
  const header = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const element = header.current;
    if (!element) return;
    const root = document.documentElement;
    const update = () => root.style.setProperty(HEADER_HEIGHT_VAR, `${element.getBoundingClientRect().height}px`);
    update();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(update);
    observer.observe(element);
    return () => {
      observer.disconnect();
      root.style.removeProperty(HEADER_HEIGHT_VAR);
    };
  }, []);
  return (
    <div className="min-vh-100 d-flex flex-column">
      <div ref={header} className="sticky-top">
        <Header />
      </div>
      <div className="d-flex flex-grow-1">
        <Sidebar pageAllowed={pageAllowed} />
        <main className="flex-grow-1 p-2 p-sm-3 p-lg-4 bg-body-tertiary" id="main">
          {children}
        </main>
      </div>
    </div>
  );
}
