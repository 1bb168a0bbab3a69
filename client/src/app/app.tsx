import { useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import { SystemGate } from '../features/system/components/system-gate';
import { AppProvider } from './provider';
import { createRouter } from './router';

export function App() {
  const [router] = useState(createRouter);
  return (
    <AppProvider>
      <SystemGate>
        <RouterProvider router={router} />
      </SystemGate>
    </AppProvider>
  );
}
