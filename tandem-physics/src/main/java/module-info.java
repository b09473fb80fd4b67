/** Tandem's multibody physics engine. Only the API package is exported; solvers, collision, geometry and dynamics stay internal. */
module io.tandem.physics {
    exports io.tandem.physics;
}
