/** The namespaces every page loads first (its own module: the build's route preloads read it too). */
export const FIRST_NAMESPACES = ['common', 'home', 'games', 'auth'];
