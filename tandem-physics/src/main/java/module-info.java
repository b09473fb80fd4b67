/** Tandem's multibody physics engine. Only the API package is exported; solvers, collision, geometry and dynamics stay internal. */
// EJML's jars name no module: they are the automatic modules "ejml.core" and "ejml.dsparse", required knowingly
@SuppressWarnings("requires-automatic")
module io.tandem.physics {
    exports io.tandem.physics;

    // the full-system ADMM baseline's sparse Cholesky (internal.solver.FullAdmm)
    requires ejml.core;
    requires ejml.dsparse;
}
