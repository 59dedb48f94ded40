import { useEffect } from 'react';
import { useBlocker, type Blocker } from 'react-router';

/**
 * While `unsaved` is true, closing or reloading the tab asks the browser's "Leave site?" question, and
 * leaving the message inside the app returns a blocker for the page to ask its own.
 */
export function useUnsavedWarning(unsaved: boolean): Blocker {
  useEffect(() => {
    if (!unsaved) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [unsaved]);
  return useBlocker(({ currentLocation, nextLocation }) => unsaved && currentLocation.pathname !== nextLocation.pathname);
}
