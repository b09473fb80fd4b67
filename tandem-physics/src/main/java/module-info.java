/** Tandem's multibody physics engine. Only the API package is exported; solvers, geometry and dynamics stay internal. */
module io.tandem.physics {
    exports io.tandem.physics;
}
