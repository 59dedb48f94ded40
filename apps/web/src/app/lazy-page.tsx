import { lazy, Suspense, type ComponentType } from 'react';
import { CenteredLoader } from './centered-loader.tsx';

export interface LazyPageHandle {
  preload: () => Promise<unknown>;
}

const RELOAD_KEY = 'clinicrelay.reloadedFor';

// A page in a chunk of its own, fetched the first time its route renders (or preloaded): sign-in stays small.
export function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>) {
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  const preload = () =>
    (loading ??= load().then(
      (component) => {
        sessionStorage.removeItem(RELOAD_KEY);
        return { default: component };
      },
      (error: unknown) => {
        loading = undefined;
        // After a deploy the old build's chunks are gone: load the new build, once per page, not an error.
        if (sessionStorage.getItem(RELOAD_KEY) !== window.location.pathname) {
          sessionStorage.setItem(RELOAD_KEY, window.location.pathname);
          window.location.reload();
        }
        throw error;
      },
    ));
  const Page = lazy(preload);
  function LazyPage(props: P) {
    return (
      <Suspense fallback={<CenteredLoader />}>
        <Page {...props} />
      </Suspense>
    );
  }
  return Object.assign(LazyPage, { handle: { preload } satisfies LazyPageHandle });
}
