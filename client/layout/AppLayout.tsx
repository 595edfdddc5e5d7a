import type { ReactNode } from 'react';
import { Header } from './Header';
import { Sidebar } from './Sidebar';

/** The signed-in frame: header, the profile's menu and the page. */
export function AppLayout({ children, pageAllowed }: { children: ReactNode; pageAllowed: boolean }) {
  return (
    <div className="min-vh-100 d-flex flex-column">
      <Header />
      <div className="d-flex flex-grow-1">
        <Sidebar pageAllowed={pageAllowed} />
        <main className="flex-grow-1 p-2 p-sm-3 p-lg-4 bg-body-tertiary" id="main">
          {children}
        </main>
      </div>
    </div>
  );
}
