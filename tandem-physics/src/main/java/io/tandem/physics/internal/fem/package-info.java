/**
 * Deformable bodies as co-rotational linear tetrahedral FEM (issue 19, physics-wave2.md section 6),
 * in pipeline order: {@link io.tandem.physics.internal.fem.TetMesh} (the rest mesh, checked),
 * {@link io.tandem.physics.internal.fem.BoxMesher} (a box into tetrahedra), {@link
 * io.tandem.physics.internal.fem.TetMeshFiles} (Gmsh MSH 4.1 and TetGen .node/.ele meshes), {@link
 * io.tandem.physics.internal.fem.CorotationalTet} (the element: rest stiffness, rotation, forces),
 * {@link io.tandem.physics.internal.fem.FemBlock} (a block's A_b and b_b per step). The engine's
 * DeformableBuilder splits a mesh into blocks and DeformableStep steps them as subsystems.
 */
package io.tandem.physics.internal.fem;
