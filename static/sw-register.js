// Registers the service worker of a release build (named by a meta tag the build
// adds) so that slowpath works offline after one visit, and offers a reload when
// a new build has been deployed. Development builds have no worker: nothing to do.

const meta = document.querySelector('meta[name="slowpath-service-worker"]');

function offerReload(registration) {
  if (document.querySelector('.update-banner')) return;
  const banner = document.createElement('div');
  banner.className = 'update-banner';
  banner.setAttribute('role', 'status');
  banner.dataset.testid = 'update-banner';
  banner.textContent = 'A new version of slowpath is available. ';
  const button = document.createElement('button');
  button.type = 'button';
  button.textContent = 'Reload';
  button.addEventListener('click', () => registration.waiting?.postMessage('skip-waiting'));
  banner.append(button);
  document.body.append(banner);
}

if (meta && 'serviceWorker' in navigator) {
  let reloading = false;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    // The new build took over after "Reload": show it. (The first visit's claim has no old page to replace.)
    if (reloading) location.reload();
  });
  navigator.serviceWorker
    .register(meta.content)
    .then((registration) => {
      const waiting = () => {
        if (registration.waiting && navigator.serviceWorker.controller) {
          reloading = true;
          offerReload(registration);
        }
      };
      waiting();
      registration.addEventListener('updatefound', () => {
        registration.installing?.addEventListener('statechange', waiting);
      });
    })
    .catch(() => {
      // No worker (a host that cannot serve it): the site still works online.
    });
}
